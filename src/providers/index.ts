import type { Knex } from 'knex';
import type { Config } from '../config';
import type { Account } from '../modules/accounts/account';
import type { Logger } from '../logger';
import type { Clock } from '../time';
import { ProviderNotConfiguredError } from './errors';
import { MollieProvider, type MollieCredentials } from './mollie/provider';
import { accountCredentials, selectProvider } from './mollie/settings';
import { SandboxProvider } from './sandbox/provider';
import type { ProviderSettingsLoader } from './settings';
import type { PaymentProvider } from './types';

export type { PaymentProvider } from './types';

/**
 * Picks the provider of an account: Mollie with the account's own key (`cli accounts set-provider`),
 * else Mollie with MOLLIE_API_KEY, else the in-process sandbox where it is enabled (never by default
 * in production: there an account without a key gets ProviderNotConfiguredError).
 */
export interface ProviderRegistry {
  forAccount(account: Pick<Account, 'id'>): Promise<PaymentProvider>;
}

export interface ProviderRegistryDeps {
  /** The sandbox keeps its state in our database. */
  db: Knex;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, 'appKey' | 'publicUrl' | 'NODE_ENV' | 'MOLLIE_API_KEY' | 'MOLLIE_API_URL' | 'sandboxEnabled'>;
  /** Reads an account's stored provider settings; given by the accounts module at bootstrap. */
  loadSettings: ProviderSettingsLoader;
  /** How long a Mollie call may take; tests shorten it. */
  mollieTimeoutMs?: number;
}

export function createProviderRegistry(deps: ProviderRegistryDeps): ProviderRegistry {
  const { db, clock, logger, config, loadSettings } = deps;

  let warnedLocalWebhook = false;
  const onLocalWebhookUrl = () => {
    if (warnedLocalWebhook) return;
    warnedLocalWebhook = true;
    logger.warn(
      'PUBLIC_URL points at this machine, where Mollie cannot deliver webhooks: payments are created without a webhookUrl and the reconciliation job brings their status up to date',
      { publicUrl: config.publicUrl },
    );
  };
  const mollie = (credentials: MollieCredentials, apiUrl: string | null) =>
    new MollieProvider({ credentials, apiUrl, logger, onLocalWebhookUrl, timeoutMs: deps.mollieTimeoutMs });

  // One client per account, kept while its stored settings stay the same: a changed key takes effect at once.
  const perAccount = new Map<string, { stamp: string; provider: MollieProvider }>();
  let fromEnvironment: MollieProvider | undefined;

  return {
    async forAccount(account) {
      const settings = await loadSettings(account.id);
      const stamp = [settings?.mollie_api_key_encrypted, settings?.mollie_profile_id, settings?.mollie_api_url].join('|');
      const cached = perAccount.get(account.id);
      if (cached && cached.stamp === stamp) return cached.provider;
      perAccount.delete(account.id);

      const selection = selectProvider(settings, config);
      if (selection.source === 'account') {
        const provider = mollie(accountCredentials(selection.stored, selection.profileId, config), selection.apiUrl);
        perAccount.set(account.id, { stamp, provider });
        return provider;
      }
      if (selection.source === 'environment') {
        fromEnvironment ??= mollie({ kind: 'apiKey', apiKey: selection.key }, selection.apiUrl);
        return fromEnvironment;
      }
      if (!config.sandboxEnabled) throw new ProviderNotConfiguredError(config.NODE_ENV);
      return new SandboxProvider(db, clock, account.id, config.publicUrl);
    },
  };
}
