import type { PaymentStatus } from '../types';

/**
 * Deterministic outcomes of recurring charges in the sandbox, chosen by the cents of the amount so
 * a merchant can rehearse failures: x.13 fails with AM04 (insufficient funds, worth a retry),
 * x.66 fails with MD01 (invalid mandate, no retry); every other amount is paid.
 */
export function settleRecurringCharge(amountCents: number): {
  status: PaymentStatus;
  failure_reason: string | null;
  failure_code: string | null;
} {
  const cents = Math.abs(amountCents) % 100;
  if (cents === 13) return { status: 'failed', failure_reason: 'Insufficient funds', failure_code: 'AM04' };
  if (cents === 66) return { status: 'failed', failure_reason: 'Invalid mandate', failure_code: 'MD01' };
  return { status: 'paid', failure_reason: null, failure_code: null };
}
