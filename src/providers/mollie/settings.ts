import { z } from 'zod';
import type { Config } from '../../config';
import { decryptSecret, encryptSecret } from '../../crypto/secrets';
import { AppError } from '../../errors';
import type { MollieCredentials } from './provider';

/**
 * Which Mollie credentials an account uses, and the rules about keys: their shape, masking, and the
 * live-key guard. Shared by the adapter's providers and its `accounts set-provider` form, so both agree.
 */

/** `test_`/`live_` API keys and `access_` organization tokens: Mollie's are 30+ letters and digits after the prefix. */
export const MOLLIE_KEY = /^(test|live|access)_[A-Za-z0-9]{30,}$/;
export const MOLLIE_PROFILE_ID = /^pfl_[A-Za-z0-9]{5,32}$/;

export type MollieKeyKind = 'test' | 'live' | 'access';

export function mollieKeyKind(key: string): MollieKeyKind {
  return key.startsWith('live_') ? 'live' : key.startsWith('access_') ? 'access' : 'test';
}

/** `test_…wXyZ`: enough to recognise a key, never enough to use it. */
export function maskMollieKey(key: string): string {
  return `${key.slice(0, key.indexOf('_') + 1)}…${key.slice(-4)}`;
}

/** Outside production a live key may charge real customers only when its owner said so when setting it. */
export function mayUseLiveKeys(config: Pick<Config, 'NODE_ENV'>, allowLive: boolean): boolean {
  return config.NODE_ENV === 'production' || allowLive;
}

/** What is stored, encrypted, in accounts.provider_credentials_sealed: the key and the --allow-live decision. */
const storedKeySchema = z.object({ key: z.string().regex(MOLLIE_KEY), allowLive: z.boolean() });
export type StoredMollieKey = z.infer<typeof storedKeySchema>;

export function sealMollieKey(appKey: Buffer, stored: StoredMollieKey): string {
  return encryptSecret(appKey, JSON.stringify(stored));
}

export class UnreadableMollieKeyError extends AppError {
  constructor() {
    super(
      500,
      "The account's Mollie key cannot be read: APP_KEY differs from the one it was stored with. Set it again with `cli accounts " +
        'set-provider`',
      'provider_credentials_unreadable',
    );
  }
}

export function openMollieKey(appKey: Buffer, sealed: string): StoredMollieKey {
  try {
    return storedKeySchema.parse(JSON.parse(decryptSecret(appKey, sealed)));
  } catch {
    throw new UnreadableMollieKeyError();
  }
}

/** A live key found outside production without --allow-live: a copied database must not charge anyone. */
export class LiveKeyRefusedError extends AppError {
  constructor(nodeEnv: string) {
    super(
      502,
      `This account's Mollie key is a live key and NODE_ENV is ` +
        `"${nodeEnv}", not "production": refused so that a copy outside production cannot charge real customers`,
      'provider_live_key_refused',
    );
  }
}

/**
 * The client credentials for an account's stored key. A live API key outside production needs the
 * stored --allow-live; an organization token has no mode of its own and runs in test mode there.
 */
export function accountCredentials(stored: StoredMollieKey, profileId: string | null, config: Pick<Config, 'NODE_ENV'>): MollieCredentials {
  const live = mayUseLiveKeys(config, stored.allowLive);
  const kind = mollieKeyKind(stored.key);
  if (kind === 'access') {
    if (!profileId)
      throw new AppError(
        500,
        "The account's Mollie organization token has no profile id; set one with `cli accounts set-provider`",
        'provider_profile_missing',
      );
    return { kind: 'accessToken', accessToken: stored.key, profileId, testmode: !live };
  }
  if (kind === 'live' && !live) throw new LiveKeyRefusedError(config.NODE_ENV);
  return { kind: 'apiKey', apiKey: stored.key };
}
