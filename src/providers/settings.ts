/**
 * What an account stores about its payment provider, as the provider registry reads it. The accounts
 * module keeps these columns; the registry receives a loader for them at bootstrap, so providers never
 * read the accounts table themselves.
 */
export interface AccountProviderSettings {
  /** The account's Mollie key, sealed with APP_KEY (see mollie/settings.ts). */
  mollie_api_key_encrypted: string | null;
  mollie_profile_id: string | null;
  mollie_api_url: string | null;
}

export type ProviderSettingsLoader = (accountId: string) => Promise<AccountProviderSettings | undefined>;
