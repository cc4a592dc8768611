import type { Config } from '../config';
import { AppError } from '../errors';
import type { ProviderAdapter, ProviderDeps, ProviderFactory } from './adapter';
import { ProviderNotConfiguredError } from './errors';
import { mollieAdapter } from './mollie';
import { mollieSubscriptionsImport } from './mollie/subscriptionsImport';
import { sandboxAdapter } from './sandbox';
import { settingsStamp, type AccountProviderSettings, type ProviderSettingsLoader } from './settings';
import type { PaymentProvider } from './types';

export type { PaymentProvider } from './types';
export type { ProviderAdapter, ProviderSubscriptionsImport } from './adapter';

/**
 * The providers, one line each. For an account without settings of its own, the first that the
 * environment configures serves it (so the order matters: a real provider's key before the sandbox).
 */
const adapters: ProviderAdapter[] = [mollieAdapter, sandboxAdapter];

/**
 * Adds an adapter for the tests of this process (a provider of the tests' own); answers how to take
 * it away again. Production code lists its adapters above.
 */
export function registerProviderAdapterForTests(adapter: ProviderAdapter): () => void {
  if (adapters.some((known) => known.name === adapter.name)) throw new Error(`A provider named "${adapter.name}" is registered already`);
  adapters.push(adapter);
  return () => {
    const index = adapters.indexOf(adapter);
    if (index >= 0) adapters.splice(index, 1);
  };
}

/**
 * The provider whose own subscriptions an import reads and hands over (one today), through the
 * account's PaymentProvider. Named here, not looked up, for its source name is a value of the API.
 */
export const PROVIDER_SUBSCRIPTIONS_IMPORT = mollieSubscriptionsImport;

export const providerAdapters = (): readonly ProviderAdapter[] => adapters;

/** An account names a provider this build does not have (one removed since it was set). */
export class UnknownProviderError extends AppError {
  constructor(name: string) {
    super(
      500,
      `The account's payment provider "${name}" is not known to this service; set another with \`cli accounts set-provider\``,
      'provider_unknown',
    );
  }
}

export function adapterNamed(name: string): ProviderAdapter {
  const adapter = adapters.find((known) => known.name === name);
  if (!adapter) throw new UnknownProviderError(name);
  return adapter;
}

/** The provider that serves accounts without settings of their own, or null where none is configured. */
export const defaultAdapter = (config: Config): ProviderAdapter | null =>
  adapters.find((adapter) => adapter.servesAccountsWithoutSettings(config)) ?? null;

/** The adapter an account's payments go through: its own choice, else the environment's. */
export function adapterOfAccount(settings: AccountProviderSettings | undefined, config: Config): ProviderAdapter | null {
  return settings?.provider ? adapterNamed(settings.provider) : defaultAdapter(config);
}

/** Picks the provider of an account: its own settings (`cli accounts set-provider`), else the environment's default. */
export interface ProviderRegistry {
  forAccount(account: { id: string }): Promise<PaymentProvider>;
}

export interface ProviderRegistryDeps extends ProviderDeps {
  /** Reads an account's stored provider settings; given by the accounts module at bootstrap. */
  loadSettings: ProviderSettingsLoader;
}

export function createProviderRegistry(deps: ProviderRegistryDeps): ProviderRegistry {
  const { config, loadSettings } = deps;
  const opened = new Map<ProviderAdapter, ProviderFactory>();
  const factoryOf = (adapter: ProviderAdapter) => {
    let factory = opened.get(adapter);
    if (!factory) {
      factory = adapter.open(deps);
      opened.set(adapter, factory);
    }
    return factory;
  };

  // One provider per account, kept while its stored settings stay the same: a changed key takes effect at once.
  const perAccount = new Map<string, { stamp: string; provider: PaymentProvider }>();

  return {
    async forAccount(account) {
      const settings = await loadSettings(account.id);
      if (settings?.provider) {
        const stamp = settingsStamp(settings);
        const cached = perAccount.get(account.id);
        if (cached && cached.stamp === stamp) return cached.provider;
        perAccount.delete(account.id);
        const provider = factoryOf(adapterNamed(settings.provider))(account.id, settings);
        perAccount.set(account.id, { stamp, provider });
        return provider;
      }
      perAccount.delete(account.id);
      const fallback = defaultAdapter(config);
      if (!fallback)
        throw new ProviderNotConfiguredError(
          config.NODE_ENV,
          adapters.flatMap((adapter) => adapter.accountSettings?.setUpHint ?? []),
        );
      return factoryOf(fallback)(account.id, null);
    },
  };
}
