import type { AppContext } from '../context';
import { decryptSecret, encryptSecret } from '../crypto/secrets';
import { randomBase62 } from '../ids';
import { accountEventSettingsRepository } from './accountSettingsRepository';

/**
 * The account's secret for signing events to its webhook_url (`whsec_…`), created on first use and
 * stored encrypted. A conditional update makes concurrent first uses agree on one secret.
 */
export async function webhookSecretOf(ctx: AppContext, accountId: string): Promise<string> {
  const read = () => accountEventSettingsRepository.webhookSecretSealed(ctx.db, accountId);
  const stored = await read();
  if (stored) return decryptSecret(ctx.config.appKey, stored);
  await accountEventSettingsRepository.setWebhookSecretIfNone(
    ctx.db,
    accountId,
    encryptSecret(ctx.config.appKey, `whsec_${randomBase62(40)}`),
  );
  const created = await read();
  if (!created) throw new Error(`Account ${accountId} does not exist`);
  return decryptSecret(ctx.config.appKey, created);
}
