import type { Knex } from 'knex';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Clock } from '../time';
import type { AccountProviderSettings } from './settings';
import type { PaymentProvider } from './types';

/**
 * Everything provider-specific, in one descriptor per provider folder (`providers/<name>/index.ts`),
 * listed once in the registry (`providers/index.ts`). Modules, routes and the CLI ask the adapter;
 * none of them names a provider.
 */
export interface ProviderAdapter {
  /** Stored on accounts that choose it, and the segment of its webhook address: `/webhooks/<name>`. */
  readonly name: string;
  /** How people are told about it: order notes ("… payment tr_…"), messages. */
  readonly displayName: string;
  /** How long the provider replays an idempotency key's answer; past it a resumed create looks its object up first. */
  readonly idempotencyKeyWindowMs: number;
  /** How long a payment may stay open or pending at the provider: reconciliation asks about one still unsettled after that. */
  readonly paymentExpiry: PaymentExpiry;
  /** Where its hosted checkouts live: the pay page's forms may be redirected on to them (CSP form-action). */
  checkoutOrigins(config: Config): readonly string[];
  /** How it reports payment changes to `POST /webhooks/<name>`; null when it reports them in-process (the sandbox). */
  readonly webhook: ProviderWebhook | null;
  /**
   * For accounts without settings of their own: whether the environment gives them this provider
   * (the first adapter in the registry that does serves them).
   */
  servesAccountsWithoutSettings(config: Config): boolean;
  /** How messages name the environment's provider as a fallback: "ACME_API_KEY if set", "the sandbox". */
  readonly fallbackText: string | null;
  /** The `accounts show` description of the environment's provider, after its name; none: the settings it went without. */
  describeDefault?(config: Config): string;
  /** Sets the adapter up for one process: what it keeps (a shared client, a warning given once) lives in what this answers. */
  open(deps: ProviderDeps): ProviderFactory;
  /** How an account chooses it with `accounts set-provider`; null when accounts cannot (the sandbox). */
  readonly accountSettings: AccountSettingsForm | null;
  /** Its own subscriptions, which it bills by itself, as an import source; absent when it has none to take over. */
  readonly subscriptionsImport?: ProviderSubscriptionsImport;
}

/**
 * A provider that bills subscriptions by itself (its own Subscriptions API): the import reads them
 * through the account's PaymentProvider (listCustomers, listSubscriptions, listSubscriptionPayments)
 * and hands each over by cancelling it there (cancelSubscription). What the import needs of it that
 * the PaymentProvider interface does not say.
 */
export interface ProviderSubscriptionsImport {
  /** The import source's name: the imports API's and the CLI's `source`, kept on each subscription imported. */
  readonly sourceName: string;
  /** How the import's reports name the biller ("Pending at …", "canceled at …"). */
  readonly billerName: string;
  /** The source in the API's reference, after its name: "(…)". */
  readonly description: string;
  /** How long our cancel request may take to reach it (the call's timeout): a cancel it made later was not ours. */
  cancelReachesWithinMs(config: Config): number;
}

export interface PaymentExpiry {
  /** Per method id (`ideal`, `directdebit`, …), in milliseconds after creation. */
  readonly byMethod: Readonly<Record<string, number>>;
  /** No method yet (the payer picks one on the checkout page) or one not listed. */
  readonly otherwise: number;
}

/** What adapters make their providers with: one set per process. */
export interface ProviderDeps {
  /** The sandbox keeps its state in our database. */
  db: Knex;
  clock: Clock;
  logger: Logger;
  config: Config;
}

/** The provider of one account: with the account's own settings, or (null) as the environment configures it. */
export type ProviderFactory = (accountId: string, settings: AccountProviderSettings | null) => PaymentProvider;

/** A call to `POST /webhooks/<name>?account=<public_ref>`, as it came. */
export interface InboundWebhookCall {
  /** The raw body, when of a content type the adapter reads; else null. */
  body: Buffer | null;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface ProviderWebhook {
  /** The content types whose bodies are read (others reach `parse` as null). */
  readonly contentTypes: readonly string[];
  /**
   * The payment a call says changed, or null when the call is not one of the provider's (it is
   * answered 200 all the same). The call is never trusted: the payment is fetched from the provider.
   */
  parse(call: InboundWebhookCall): { paymentId: string } | null;
}

/** One option an adapter adds to `accounts set-provider`. */
export interface ProviderCliOption {
  /** As commander reads them: `--api-key <key>`, `--allow-live`. */
  readonly flags: string;
  readonly description: string;
  /** `-` reads the value from standard input, so a secret stays out of argv: the prompt, and the message when nothing came. */
  readonly fromStdin?: { prompt: string; missing: string };
}

/** The options given to `accounts set-provider`, by their attribute names (`apiKey`, `allowLive`). */
export type ProviderOptionValues = Readonly<Record<string, string | boolean | null | undefined>>;

/** What an account stores when it chooses the provider, as the adapter made it from the options. */
export interface SettingsToStore {
  credentialsSealed: string | null;
  profileId: string | null;
  options: Readonly<Record<string, string>> | null;
  /** How `accounts set-provider` confirms it, after "uses": `Acme with key test_…lXsM`. */
  summary: string;
}

export interface AccountSettingsForm {
  /** Its options; the first one chooses the provider, the others go with it. */
  readonly options: readonly [ProviderCliOption, ...ProviderCliOption[]];
  /** What an account's own settings are called in messages: "has no … of its own". */
  readonly noun: string;
  /** Why an account does not use it, for the description of the fallback that serves it instead. */
  readonly absentText: string;
  /** How to give an account its settings, for the message that no provider is configured. */
  readonly setUpHint: string;
  /** Checks the options and seals the credentials; throws ProviderSettingsError naming what is wrong. */
  settingsFrom(values: ProviderOptionValues, config: Config): SettingsToStore;
  /** The `accounts show` description of stored settings, after the name: `account key test_…lXsM`. */
  describe(settings: AccountProviderSettings, config: Config): string;
  /** Further `accounts show` lines, as [label, value]. */
  shownLines(settings: AccountProviderSettings): ReadonlyArray<readonly [string, string]>;
}

/** Options given to `accounts set-provider` that cannot be stored; the message says what to fix. */
export class ProviderSettingsError extends Error {}

/** The attribute name commander gives an option: `--api-key <key>` → `apiKey`. */
export function optionName(flags: string): string {
  const long = /--([a-z][a-z0-9-]*)/i.exec(flags)?.[1] ?? flags;
  return long.replace(/-([a-z0-9])/g, (_dash, letter: string) => letter.toUpperCase());
}
