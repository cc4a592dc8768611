import type { MandateMethod, PaymentStatus } from '../types';

export interface RecurringOutcome {
  status: PaymentStatus;
  failure_reason: string | null;
  failure_code: string | null;
}

/**
 * Deterministic outcomes of recurring charges in the sandbox, chosen by the cents of the amount so
 * a merchant can rehearse failures. A direct debit fails the way a bank reports it: x.13 with AM04
 * (insufficient funds, worth a retry), x.66 with MD01 (invalid mandate, no retry). A card charge
 * fails the way a provider reports a card: x.13 insufficient_funds, x.66 card_expired. Every other
 * amount is paid.
 */
export function settleRecurringCharge(amountCents: number, method: MandateMethod): RecurringOutcome {
  const cents = Math.abs(amountCents) % 100;
  const card = method === 'creditcard';
  if (cents === 13) {
    return card
      ? { status: 'failed', failure_reason: 'The card has insufficient funds available.', failure_code: 'insufficient_funds' }
      : { status: 'failed', failure_reason: 'Insufficient funds', failure_code: 'AM04' };
  }
  if (cents === 66) {
    return card
      ? { status: 'failed', failure_reason: 'The card has expired.', failure_code: 'card_expired' }
      : { status: 'failed', failure_reason: 'Invalid mandate', failure_code: 'MD01' };
  }
  return { status: 'paid', failure_reason: null, failure_code: null };
}

/**
 * What a magic IBAN of the sandbox's own bank (`SNDB`) says about the debits of its mandate: the account
 * number `00OO NNKK 00` names a rule OO, a debit NN (the Nth debit on the mandate, retries counted, from 1)
 * and for a charge-back a number of days KK. docs/providers.md lists them with examples.
 */
export interface MagicIban {
  /**
   * `am04-once`: debit NN fails AM04; `am04-from`: debit NN and every later one fail AM04; `md01-once`: debit NN
   * fails MD01; `md06-chargeback`: debit NN is paid and charged back KK days after it was paid.
   */
  rule: 'am04-once' | 'am04-from' | 'md01-once' | 'md06-chargeback';
  debit: number;
  days: number;
}

const MAGIC_RULES: Readonly<Record<string, MagicIban['rule']>> = {
  '04': 'am04-once',
  '14': 'am04-from',
  '01': 'md01-once',
  '06': 'md06-chargeback',
};

/** The magic IBAN's rule, or null for any other account (spaces and case as people write them are accepted). */
export function decodeMagicIban(iban: string | null): MagicIban | null {
  const match = /^NL\d{2}SNDB00(\d{2})(\d{2})(\d{2})00$/.exec((iban ?? '').replace(/\s+/g, '').toUpperCase());
  const rule = match ? MAGIC_RULES[match[1] ?? ''] : undefined;
  const debit = Number(match?.[2]);
  if (!rule || debit < 1) return null;
  return { rule, debit, days: rule === 'md06-chargeback' ? Number(match?.[3]) : 0 };
}

export interface DebitOutcome extends RecurringOutcome {
  /** Days after it is paid that the debit is charged back (MD06); null when it is not. */
  chargeBackAfterDays: number | null;
}

const AM04: RecurringOutcome = { status: 'failed', failure_reason: 'Insufficient funds', failure_code: 'AM04' };
const MD01: RecurringOutcome = { status: 'failed', failure_reason: 'Invalid mandate', failure_code: 'MD01' };

/**
 * How the `debit`-th recurring charge on a mandate ends: as its mandate's magic IBAN says for the debits it
 * names, else by the cents of the amount (settleRecurringCharge). A card mandate has no IBAN: cents only.
 */
export function settleDebit(amountCents: number, method: MandateMethod, iban: string | null, debit: number): DebitOutcome {
  const magic = method === 'directdebit' ? decodeMagicIban(iban) : null;
  const byCents = () => ({ ...settleRecurringCharge(amountCents, method), chargeBackAfterDays: null });
  if (!magic) return byCents();
  switch (magic.rule) {
    case 'am04-once':
      return debit === magic.debit ? { ...AM04, chargeBackAfterDays: null } : byCents();
    case 'am04-from':
      return debit >= magic.debit ? { ...AM04, chargeBackAfterDays: null } : byCents();
    case 'md01-once':
      return debit === magic.debit ? { ...MD01, chargeBackAfterDays: null } : byCents();
    case 'md06-chargeback':
      return debit === magic.debit
        ? { status: 'paid', failure_reason: null, failure_code: null, chargeBackAfterDays: magic.days }
        : byCents();
  }
}
