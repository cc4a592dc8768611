import type { PaymentStatus } from '../../providers/types';

/**
 * How far along its life a payment is. A status only ever moves forward, so a late or repeated
 * provider report (an `expired` after `paid`) can never undo what already happened.
 */
const STAGE: Record<PaymentStatus, number> = {
  open: 0,
  pending: 1,
  authorized: 2,
  paid: 3,
  canceled: 3,
  expired: 3,
  failed: 3,
  refunded: 4,
  charged_back: 4,
};

export function canMoveTo(current: PaymentStatus, next: PaymentStatus): boolean {
  if (STAGE[next] <= STAGE[current]) return false;
  // Money can only come back from a payment that was paid.
  if (STAGE[next] === 4) return current === 'paid';
  return true;
}
