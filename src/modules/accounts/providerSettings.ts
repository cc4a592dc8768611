import type { AppContext } from '../../context';
import {
  maskMollieKey,
  mayUseLiveKeys,
  MOLLIE_KEY,
  MOLLIE_PROFILE_ID,
  mollieKeyKind,
  sealMollieKey,
  selectProvider,
  UnreadableMollieKeyError,
  type ProviderSelection,
} from '../../providers/mollie/settings';
import { toDbDateTime } from '../../time';
import { providerWebhookUrl } from '../../webhooks/inbound/url';
import { webhookSecretOf } from '../../outbox/secret';
import { accountsRepository, type AccountRow } from './repository';
import { AccountError, requireAccount } from './service';

export interface ProviderSettingsInput {
  mollieApiKey: string;
  profileId?: string | null;
  mollieApiUrl?: string | null;
  /** Accept a live key outside production (stored with the key, checked again at every use). */
  allowLive: boolean;
}

function validApiUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AccountError(`"${text}" is not a URL; the Mollie API URL looks like https://api.mollie.com/v2/`);
  }
  if (url.protocol !== 'https:') throw new AccountError('The Mollie API URL must start with https:// (the Mollie client refuses anything else)');
  if (url.username || url.password) throw new AccountError('The Mollie API URL must not carry a user name or password');
  return url.toString();
}

/**
 * Gives the account its own Mollie credentials, encrypted with APP_KEY. A live key outside
 * production is refused unless `allowLive`, so a staging copy cannot charge real customers.
 */
export async function setProviderSettings(ctx: AppContext, accountName: string, input: ProviderSettingsInput): Promise<AccountRow> {
  const account = await requireAccount(ctx.db, accountName);
  const key = input.mollieApiKey.trim();
  if (!MOLLIE_KEY.test(key)) {
    throw new AccountError('A Mollie API key is test_ or live_ followed by at least 30 letters and digits (or access_ for an organization access token)');
  }
  const kind = mollieKeyKind(key);
  if (kind === 'live' && !mayUseLiveKeys(ctx.config, input.allowLive)) {
    throw new AccountError(
      `Refused a live_ key: NODE_ENV is "${ctx.config.NODE_ENV}", not "production", and a copy outside production must not charge real customers. Pass --allow-live if you really mean it`,
    );
  }
  const profileId = input.profileId?.trim() || null;
  if (profileId !== null && !MOLLIE_PROFILE_ID.test(profileId)) throw new AccountError('A Mollie profile id is pfl_ followed by letters and digits');
  if (kind === 'access' && profileId === null) {
    throw new AccountError('An organization access token (access_…) is not tied to one website profile: pass --profile-id pfl_…');
  }
  const apiUrl = input.mollieApiUrl?.trim() ? validApiUrl(input.mollieApiUrl.trim()) : null;
  const changes = {
    mollie_api_key_encrypted: sealMollieKey(ctx.config.appKey, { key, allowLive: input.allowLive }),
    mollie_profile_id: profileId,
    mollie_api_url: apiUrl,
    updated_at: toDbDateTime(ctx.clock.now()),
  };
  await accountsRepository.update(ctx.db, account.id, changes);
  return { ...account, ...changes };
}

/** Removes the account's own credentials: it falls back to MOLLIE_API_KEY, else the sandbox. */
export async function clearProviderSettings(ctx: AppContext, accountName: string): Promise<AccountRow> {
  const account = await requireAccount(ctx.db, accountName);
  const changes = { mollie_api_key_encrypted: null, mollie_profile_id: null, mollie_api_url: null, updated_at: toDbDateTime(ctx.clock.now()) };
  await accountsRepository.update(ctx.db, account.id, changes);
  return { ...account, ...changes };
}

/** What to say about a key the account stores, beyond its masked self. */
function keyNote(ctx: AppContext, key: string, allowLive: boolean): string | null {
  const kind = mollieKeyKind(key);
  const liveAllowed = mayUseLiveKeys(ctx.config, allowLive);
  if (kind === 'access') return liveAllowed ? 'live mode' : 'test mode outside production';
  if (kind === 'live' && !liveAllowed) return `REFUSED: a live key and NODE_ENV is ${ctx.config.NODE_ENV}`;
  if (kind === 'live' && ctx.config.NODE_ENV !== 'production') return 'live allowed outside production';
  return null;
}

/** "mollie (account key test_…wXyZ)", "mollie (environment …)" or "sandbox …": what the account's requests use. */
export function describeProvider(ctx: AppContext, account: AccountRow): string {
  let selection: ProviderSelection;
  try {
    selection = selectProvider(account, ctx.config);
  } catch (error) {
    if (error instanceof UnreadableMollieKeyError) return 'mollie (account key UNREADABLE: APP_KEY differs from the one it was stored with)';
    throw error;
  }
  if (selection.source === 'sandbox') return 'sandbox (no Mollie key on the account nor in MOLLIE_API_KEY)';
  if (selection.source === 'environment') return `mollie (environment MOLLIE_API_KEY ${maskMollieKey(selection.key)})`;
  const { key, allowLive } = selection.stored;
  const note = keyNote(ctx, key, allowLive);
  return `mollie (account key ${maskMollieKey(key)}${note ? `; ${note}` : ''})`;
}

export interface AccountOverview {
  account: AccountRow;
  provider: string;
  webhookSecret: string;
  providerWebhookUrl: string;
}

/** Everything `accounts show` prints. Creates the account's webhook secret on first use. */
export async function accountOverview(ctx: AppContext, accountName: string): Promise<AccountOverview> {
  const account = await requireAccount(ctx.db, accountName);
  return {
    account,
    provider: describeProvider(ctx, account),
    webhookSecret: await webhookSecretOf(ctx, account.id),
    providerWebhookUrl: providerWebhookUrl(ctx.config.publicUrl, account),
  };
}
