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
