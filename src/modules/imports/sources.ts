import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import type { Cents } from '../../money';
import type { PaymentProvider } from '../../providers';
import type { RuleInterval, SubscriptionRow } from '../subscriptions/repository';

import type { ImportInvoicing } from './importVat';
import type { ImportSourceName } from '../subscriptions/sourceNames';

export { IMPORT_SOURCES, type ImportSourceName } from '../subscriptions/sourceNames';

/** A customer as the source knows it; `providerCustomerId` when it already exists at the provider. */
export interface CandidateCustomer {
  firstName: string;
  lastName: string;
  email: string;
  locale: string | null;
  providerCustomerId: string | null;
}

/**
 * The mandate to charge: one the provider already holds (its own subscriptions, a store's), or a
 * SEPA mandate signed elsewhere that is made at the provider with its own reference and date (CSV).
 */
export type CandidateMandate =
  | { kind: 'existing'; providerMandateId: string }
  | { kind: 'sepa'; consumerName: string; iban: string; signatureDate: string; reference: string };

/**
 * The subscription as it runs at the source. `times` is its total length (null: until cancelled),
 * `timesDone` the charges the source made already: ours numbers on from there, so `times` and
 * `completed` stay right. `nextDate` (Y-m-d) is the first charge ours makes; `day` the rule's day
 * (null: the day of `nextDate`).
 */
export interface CandidateSubscription {
  amount: Cents;
  interval: RuleInterval;
  intervalAmount: number;
  day: number | null;
  times: number | null;
  timesDone: number;
  nextDate: string;
  description: string;
  /** Its invoice rules at the VAT the source charged, or why that is not known (its invoices are then not issued); absent: neither. */
  invoicing?: ImportInvoicing;
}

/**
 * One of the source's subscriptions. `sourceId` is the source's own key for it (a CSV's mandate
 * reference, the provider's subscription id, the store's subscription id): every import of it is keyed
 * by it. A candidate that cannot be taken over says why in `skipReason`; one the source could not
 * read says which field in `invalid` (it fails alone, with its `line`).
 */
export interface ImportCandidate {
  sourceId: string;
  line?: number | null;
  customer: CandidateCustomer | null;
  mandate: CandidateMandate | null;
  subscription: CandidateSubscription | null;
  skipReason?: string;
  invalid?: { field: string; message: string };
  /** Said after the plan in a dry run: what the hand-over will do besides (wait for a charge the source makes today). */
  dryRunNote?: string;
}

/**
 * Where a hand-over stands: `done` when the source bills the subscription no more; otherwise `note`
 * says what it waits for (a charge the source makes today, say) and the next run tries again.
 * `held`: the source stopped billing without our asking (the customer ended it there): ours is held,
 * never charged, and the row is reported for the merchant to decide.
 */
export type HandOver = { done: true; note?: string } | { done: false; note: string; held?: true };

/**
 * A place running subscriptions are read from, one candidate at a time (an async generator), for
 * one account. `runImport` does the rest: customer, mandate record and subscription, idempotently.
 */
export interface ImportSource {
  readonly name: ImportSourceName;
  candidates(ctx: AppContext, account: Account): AsyncIterable<ImportCandidate>;
  /**
   * For a source that goes on billing by itself (the provider's subscription, the renewal of the
   * store's subscriptions extension): stops it, after our subscription holds the next charge. Until it answers
   * `done` our subscription is `handover_pending` and billing charges none of it, so that exactly
   * one system bills a period. Called again on every run while it is pending (also for a row
   * imported before, with what the source says now), so it must be safe to repeat; an error leaves
   * the row failed on `handover` and pending. Absent for a source that bills nothing itself (a file).
   */
  handOver?(
    ctx: AppContext,
    account: Account,
    provider: PaymentProvider,
    candidate: ImportCandidate,
    subscription: SubscriptionRow,
  ): Promise<HandOver>;
}
