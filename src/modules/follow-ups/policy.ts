import type { FollowUpKind, FollowUpType } from './repository';
import type { FollowUpSettings } from './settings';

/**
 * What a follow-up does next, as one table: the moment (opened, a retry failed, a retry could not be
 * made), what it follows up (a failed charge, a chargeback, a charge made without a valid mandate, a
 * double payment), the failure's reason code, the retries done and the account's settings decide the
 * next step. The first row that matches wins.
 */

/**
 * Failure codes worth charging again: the money may be there in a few days (SEPA AM04 insufficient funds, MS03 unspecified; cards without
 * funds or declined once).
 */
const RETRYABLE_CODES: ReadonlySet<string> = new Set(['AM04', 'MS03', 'insufficient_funds', 'card_declined']);

export function worthRetrying(reasonCode: string | null): boolean {
  return reasonCode !== null && RETRYABLE_CODES.has(reasonCode);
}

/**
 * SEPA reason codes (as the provider reports them in `bankReasonCode`) that say the debtor's account or the
 * mandate is gone: charging the same mandate again can only fail again, so such a follow-up is never
 * retried and its link is a takeover link — paying it makes a new mandate that the subscription is
 * charged on from then on (takeovers/service.ts). In one place, here.
 */
const MANDATE_GONE_CODES: ReadonlySet<string> = new Set([
  'AC01', // account identifier incorrect (no such IBAN)
  'AC04', // account closed
  'AC06', // account blocked (for direct debits, or by the bank)
  'AC13', // debtor account type invalid (e.g. a consumer account refuses B2B debits)
  'AG01', // transaction forbidden on this type of account (savings accounts)
  'MD01', // no mandate, or the mandate was revoked
  'MD02', // mandate data missing or wrong
  'MD07', // end customer deceased
  'SL01', // the debtor's bank blocks this creditor's debits (a block the debtor asked for)
]);

export function mandateGone(reasonCode: string | null): boolean {
  return reasonCode !== null && MANDATE_GONE_CODES.has(reasonCode.toUpperCase());
}

/** Whether the follow-up's link asks for a new mandate (a takeover) rather than a one-off payment. */
export function needsNewMandate(followUp: { kind: FollowUpKind; reason_code: string | null }): boolean {
  return followUp.kind === 'mandate' || (followUp.kind === 'failure' && mandateGone(followUp.reason_code));
}

/** When a step is decided. */
export type FollowUpMoment = 'opened' | 'retry failed' | 'retry impossible';

/**
 * `retry`/`link`: that stage, due `inDays` days from today; `refund`: the merchant's to do; `give up`: failed, with the on-failure action.
 */
export type NextStep = { stage: 'retry' | 'link'; inDays: number } | { stage: 'refund' } | { stage: 'give up' };

export interface FollowUpFacts {
  moment: FollowUpMoment;
  kind: FollowUpKind;
  reasonCode: string | null;
  retriesDone: number;
}

interface PolicyRow {
  /** Why this row is here, for whoever reads the table. */
  why: string;
  when(facts: FollowUpFacts, settings: FollowUpSettings): boolean;
  then(settings: FollowUpSettings): NextStep;
}

const retryAfterSettingDays = (settings: FollowUpSettings): NextStep => ({ stage: 'retry', inDays: settings.retryDays });
const linkTomorrow = (): NextStep => ({ stage: 'link', inDays: 1 });

const POLICY: readonly PolicyRow[] = [
  {
    why: 'a double payment is refunded by the merchant, never retried or mailed',
    when: (f) => f.kind === 'double_payment',
    then: () => ({ stage: 'refund' }),
  },
  {
    why: 'nothing to charge again on (no valid mandate, the retry refused): ask by link today',
    when: (f) => f.moment === 'retry impossible',
    then: () => ({ stage: 'link', inDays: 0 }),
  },
  {
    why: 'a failed charge whose code is worth it is charged again after the account’s days, unless the account only sends links',
    when: (f, s) => f.moment === 'opened' && f.kind === 'failure' && s.type !== 'link' && worthRetrying(f.reasonCode),
    then: retryAfterSettingDays,
  },
  { why: 'anything else just opened is asked by link the day after', when: (f) => f.moment === 'opened', then: linkTomorrow },
  {
    why: 'a failed retry is retried while retries are left and its code is worth it',
    when: (f, s) => f.retriesDone < s.maxRetries && worthRetrying(f.reasonCode),
    then: retryAfterSettingDays,
  },
  {
    why: 'retries over or pointless: the link, unless the account only retries',
    when: (f, s) => s.type !== 'retry' || !worthRetrying(f.reasonCode),
    then: linkTomorrow,
  },
  { why: 'an account that only retries gives up when its retries are over', when: () => true, then: () => ({ stage: 'give up' }) },
];

export function nextStep(facts: FollowUpFacts, settings: FollowUpSettings): NextStep {
  const row = POLICY.find((candidate) => candidate.when(facts, settings)) as PolicyRow; // the last row always matches
  return row.then(settings);
}

/**
 * The follow-up's `type` as shown: without a valid mandate (none, or one whose account is gone)
 * nothing can be charged again, so only a link.
 */
export function followUpTypeOf(kind: FollowUpKind, settings: FollowUpSettings, reasonCode: string | null = null): FollowUpType {
  return kind === 'mandate' || (kind === 'failure' && mandateGone(reasonCode)) ? 'link' : settings.type;
}
