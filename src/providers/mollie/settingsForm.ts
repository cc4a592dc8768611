import type { Config } from '../../config';
import { ProviderSettingsError, type AccountSettingsForm, type ProviderOptionValues } from '../adapter';
import { storedOption, type AccountProviderSettings } from '../settings';
import {
  maskMollieKey,
  mayUseLiveKeys,
  MOLLIE_KEY,
  MOLLIE_PROFILE_ID,
  mollieKeyKind,
  openMollieKey,
  sealMollieKey,
  UnreadableMollieKeyError,
} from './settings';

/** The `provider_options` key of an account's own API root. */
export const API_URL_OPTION = 'apiUrl';

const text = (value: ProviderOptionValues[string]) => (typeof value === 'string' ? value : null);

function validApiUrl(given: string): string {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new ProviderSettingsError(`"${given}" is not a URL; the Mollie API URL looks like https://api.mollie.com/v2/`);
  }
  if (url.protocol !== 'https:')
    throw new ProviderSettingsError('The Mollie API URL must start with https:// (the Mollie client refuses anything else)');
  if (url.username || url.password) throw new ProviderSettingsError('The Mollie API URL must not carry a user name or password');
  return url.toString();
}

/** What to say about a key the account stores, beyond its masked self. */
function keyNote(config: Pick<Config, 'NODE_ENV'>, key: string, allowLive: boolean): string | null {
  const kind = mollieKeyKind(key);
  const liveAllowed = mayUseLiveKeys(config, allowLive);
  if (kind === 'access') return liveAllowed ? 'live mode' : 'test mode outside production';
  if (kind === 'live' && !liveAllowed) return `REFUSED: a live key and NODE_ENV is ${config.NODE_ENV}`;
  if (kind === 'live' && config.NODE_ENV !== 'production') return 'live allowed outside production';
  return null;
}

/**
 * `accounts set-provider --mollie-api-key …`: the account's own Mollie credentials, sealed with
 * APP_KEY. A live key outside production is refused unless --allow-live, so a staging copy cannot
 * charge real customers.
 */
export const mollieSettingsForm: AccountSettingsForm = {
  options: [
    {
      flags: '--mollie-api-key <key>',
      description:
        'test_… or live_… API key (or an access_… organization token, with --profile-id); - reads it from standard input, so it stays ' +
        'out of argv and shell history',
      fromStdin: {
        prompt: 'Mollie API key: ',
        missing: 'No Mollie API key on standard input: --mollie-api-key - reads the key from the first line of standard input',
      },
    },
    { flags: '--profile-id <id>', description: 'Mollie website profile, pfl_…' },
    {
      flags: '--mollie-api-url <url>',
      description: 'Mollie API root, https only (default https://api.mollie.com/v2/; for tests and proxies)',
    },
    { flags: '--allow-live', description: 'accept a live_ key although NODE_ENV is not production' },
  ],
  noun: 'Mollie key',
  absentText: 'no Mollie key on the account nor in MOLLIE_API_KEY',
  setUpHint: 'set MOLLIE_API_KEY, or give the account its own key with `cli accounts set-provider --account <name> --mollie-api-key -`',

  settingsFrom(values, config) {
    const key = (text(values.mollieApiKey) ?? '').trim();
    const allowLive = values.allowLive === true;
    if (!MOLLIE_KEY.test(key)) {
      throw new ProviderSettingsError(
        'A Mollie API key is test_ or live_ followed by at least 30 letters and digits (or access_ for an organization access token)',
      );
    }
    const kind = mollieKeyKind(key);
    if (kind === 'live' && !mayUseLiveKeys(config, allowLive)) {
      throw new ProviderSettingsError(
        `Refused a live_ key: NODE_ENV is ` +
          (`"${config.NODE_ENV}", not "production", and a copy outside production must not charge real customers. Pass --allow-live ` +
            `if you really mean it`),
      );
    }
    const profileId = text(values.profileId)?.trim() || null;
    if (profileId !== null && !MOLLIE_PROFILE_ID.test(profileId))
      throw new ProviderSettingsError('A Mollie profile id is pfl_ followed by letters and digits');
    if (kind === 'access' && profileId === null) {
      throw new ProviderSettingsError(
        'An organization access token (access_…) is not tied to one website profile: pass --profile-id pfl_…',
      );
    }
    const givenUrl = text(values.mollieApiUrl)?.trim();
    const apiUrl = givenUrl ? validApiUrl(givenUrl) : null;
    const details = [profileId && `profile ${profileId}`, apiUrl && `API ${apiUrl}`].filter((part) => part);
    return {
      credentialsSealed: sealMollieKey(config.appKey, { key, allowLive }),
      profileId,
      options: apiUrl ? { [API_URL_OPTION]: apiUrl } : null,
      summary: `Mollie with key ${maskMollieKey(key)}${details.length ? ` (${details.join(', ')})` : ''}`,
    };
  },

  describe(settings: AccountProviderSettings, config) {
    if (!settings.provider_credentials_sealed) return 'account key none';
    try {
      const { key, allowLive } = openMollieKey(config.appKey, settings.provider_credentials_sealed);
      const note = keyNote(config, key, allowLive);
      return `account key ${maskMollieKey(key)}${note ? `; ${note}` : ''}`;
    } catch (error) {
      if (error instanceof UnreadableMollieKeyError) return 'account key UNREADABLE: APP_KEY differs from the one it was stored with';
      throw error;
    }
  },

  shownLines(settings) {
    const apiUrl = storedOption(settings, API_URL_OPTION);
    return apiUrl ? [['mollie api url', apiUrl]] : [];
  },
};
