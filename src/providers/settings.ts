/**
 * What an account stores about its payment provider, as the provider registry reads it. The accounts
 * module keeps these columns; the registry receives a loader for them at bootstrap, so providers never
 * read the accounts table themselves. The adapter named in `provider` alone knows what its sealed
 * credentials and its options mean.
 */
export interface AccountProviderSettings {
  /** The adapter's name (`accounts set-provider`); null: the environment's default provider. */
  provider: string | null;
  /** The account's credentials, sealed with APP_KEY by the adapter that reads them. */
  provider_credentials_sealed: string | null;
  /** The provider's profile (website, shop) the account's payments are made on, when it names one. */
  provider_profile_id: string | null;
  /** The adapter's further settings as JSON text, e.g. `{"apiUrl":"https://…"}`. */
  provider_options: string | null;
}

export type ProviderSettingsLoader = (accountId: string) => Promise<AccountProviderSettings | undefined>;

export const NO_PROVIDER_SETTINGS: AccountProviderSettings = {
  provider: null,
  provider_credentials_sealed: null,
  provider_profile_id: null,
  provider_options: null,
};

/** One text per distinct set of settings: a provider made for the account is kept while it stays the same. */
export const settingsStamp = (settings: AccountProviderSettings): string =>
  JSON.stringify([settings.provider, settings.provider_credentials_sealed, settings.provider_profile_id, settings.provider_options]);

/** An option the adapter stored (a string), or null when it stored none or the JSON cannot be read. */
export function storedOption(settings: Pick<AccountProviderSettings, 'provider_options'>, name: string): string | null {
  if (!settings.provider_options) return null;
  try {
    const options: unknown = JSON.parse(settings.provider_options);
    const value = typeof options === 'object' && options !== null ? (options as Record<string, unknown>)[name] : undefined;
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}
