import type { AppContext } from '../context';
import { decryptSecret, encryptSecret } from '../crypto/secrets';
import { randomBase62 } from '../ids';

/**
 * The account's secret for signing events to its webhook_url (`whsec_…`), created on first use and
 * stored encrypted. A conditional update makes concurrent first uses agree on one secret.
 */
export async function webhookSecretOf(ctx: AppContext, accountId: string): Promise<string> {
  const read = async () =>
    (await ctx.db('accounts').where({ id: accountId }).first<{ webhook_secret_encrypted: string | null } | undefined>('webhook_secret_encrypted'))
      ?.webhook_secret_encrypted ?? null;
  const stored = await read();
  if (stored) return decryptSecret(ctx.config.appKey, stored);
  await ctx.db('accounts')
    .where({ id: accountId })
    .whereNull('webhook_secret_encrypted')
    .update({ webhook_secret_encrypted: encryptSecret(ctx.config.appKey, `whsec_${randomBase62(40)}`) });
  const created = await read();
  if (!created) throw new Error(`Account ${accountId} does not exist`);
  return decryptSecret(ctx.config.appKey, created);
}
