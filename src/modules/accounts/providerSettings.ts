import type { AppContext } from '../../context';
import { ProviderSettingsError, optionName, type ProviderAdapter, type ProviderOptionValues } from '../../providers/adapter';
import { adapterOfAccount, defaultAdapter, providerAdapters } from '../../providers';
import { NO_PROVIDER_SETTINGS } from '../../providers/settings';
import { providerWebhookUrl } from '../../providers/webhookUrl';
import { toDbDateTime } from '../../time';
import { webhookSecretOf } from '../../events/secret';
import { accountsRepository, type AccountRow } from './repository';
import { AccountError, requireAccount } from './service';

/** The providers an account can choose with `accounts set-provider`, each by its first option. */
export const choosableProviders = (): ProviderAdapter[] => providerAdapters().filter((adapter) => adapter.accountSettings !== null);

/** The provider whose choosing option was given (`apiKey` for `--api-key`), if exactly one was. */
export function chosenProvider(values: ProviderOptionValues): ProviderAdapter | null {
  const chosen = choosableProviders().filter((adapter) => {
    const [choosing] = adapter.accountSettings?.options ?? [];
    return choosing !== undefined && values[optionName(choosing.flags)] !== undefined;
  });
  return chosen.length === 1 ? (chosen[0] ?? null) : null;
}

/**
 * Gives the account its own provider settings, as the chosen provider's form makes them of the
 * options (the credentials sealed with APP_KEY). Answers the account and how the choice is told.
 */
export async function setProviderSettings(
  ctx: AppContext,
  accountName: string,
  values: ProviderOptionValues,
): Promise<{ account: AccountRow; summary: string }> {
  const account = await requireAccount(ctx.db, accountName);
  const adapter = chosenProvider(values);
  if (!adapter?.accountSettings) throw new AccountError('Name one provider to use');
  let settings;
  try {
    settings = adapter.accountSettings.settingsFrom(values, ctx.config);
  } catch (error) {
    if (error instanceof ProviderSettingsError) throw new AccountError(error.message);
    throw error;
  }
  const changes = {
    provider: adapter.name,
    provider_credentials_sealed: settings.credentialsSealed,
    provider_profile_id: settings.profileId,
    provider_options: settings.options ? JSON.stringify(settings.options) : null,
    updated_at: toDbDateTime(ctx.clock.now()),
  };
  await accountsRepository.update(ctx.db, account.id, changes);
  return { account: { ...account, ...changes }, summary: settings.summary };
}

/** Removes the account's own settings: it falls back to the environment's provider. */
export async function clearProviderSettings(ctx: AppContext, accountName: string): Promise<AccountRow> {
  const account = await requireAccount(ctx.db, accountName);
  const changes = { ...NO_PROVIDER_SETTINGS, updated_at: toDbDateTime(ctx.clock.now()) };
  await accountsRepository.update(ctx.db, account.id, changes);
  return { ...account, ...changes };
}

/** "… has no <key> of its own; it uses <the fallbacks>": what --none leaves, in the providers' own words. */
export function withoutOwnSettingsText(): string {
  const nouns = choosableProviders().flatMap((adapter) => adapter.accountSettings?.noun ?? []);
  const fallbacks = providerAdapters().flatMap((adapter) => adapter.fallbackText ?? []);
  return `has no ${nouns.join(' nor ') || 'provider settings'} of its own; it uses ${fallbacks.join(', else ')}`;
}

/** "<provider> (<its description>)": what the account's requests use, in the words of its adapter. */
export function describeProvider(ctx: AppContext, account: AccountRow): string {
  if (account.provider) {
    const form = providerAdapters().find((adapter) => adapter.name === account.provider)?.accountSettings;
    return `${account.provider} (${form ? form.describe(account, ctx.config) : 'not known to this service'})`;
  }
  const fallback = defaultAdapter(ctx.config);
  // What the account goes without: the settings of each provider ahead of the one that serves it.
  const ahead = fallback ? providerAdapters().slice(0, providerAdapters().indexOf(fallback)) : providerAdapters();
  const without = ahead.flatMap((adapter) => adapter.accountSettings?.absentText ?? []).join('; ');
  if (!fallback) return `none (${without})`;
  return `${fallback.name} (${fallback.describeDefault?.(ctx.config) ?? without})`;
}

export interface AccountOverview {
  account: AccountRow;
  provider: string;
  /** Further lines of the provider's own (label, value). */
  providerLines: ReadonlyArray<readonly [string, string]>;
  webhookSecret: string;
  /** Where the account's provider reports changes, or why there is no such address. */
  providerWebhookUrl: string;
}

/** Where the account's provider reports to us, if it reports by webhook. */
function webhookAddressOf(ctx: AppContext, account: AccountRow): string {
  let adapter: ProviderAdapter | null;
  try {
    adapter = adapterOfAccount(account, ctx.config);
  } catch {
    return 'none (the provider is not known to this service)';
  }
  if (!adapter) return 'none (no provider)';
  if (!adapter.webhook) return `none (the ${adapter.name} reports changes in-process)`;
  return providerWebhookUrl(ctx.config.publicUrl, adapter.name, account);
}

/** Everything `accounts show` prints. Creates the account's webhook secret on first use. */
export async function accountOverview(ctx: AppContext, accountName: string): Promise<AccountOverview> {
  const account = await requireAccount(ctx.db, accountName);
  const form = account.provider ? providerAdapters().find((adapter) => adapter.name === account.provider)?.accountSettings : undefined;
  return {
    account,
    provider: describeProvider(ctx, account),
    providerLines: form ? form.shownLines(account) : [],
    webhookSecret: await webhookSecretOf(ctx, account.id),
    providerWebhookUrl: webhookAddressOf(ctx, account),
  };
}
