import { PAYMENT_STATUSES } from '../../providers/types';

/**
 * Our payment's status: the provider's statuses, plus two of our own around the provider call.
 * `creating`: our row exists and the provider's answer is not recorded yet (not asked yet, or the
 * answer was lost); it is resumed, never recreated. `rejected`: the provider refused it, or it could
 * not be created within a day; nothing exists at the provider.
 */
export const PAYMENT_ROW_STATUSES = ['creating', 'rejected', ...PAYMENT_STATUSES] as const;
export type PaymentRowStatus = (typeof PAYMENT_ROW_STATUSES)[number];

/**
 * How far along its life a payment is. A status only ever moves forward, so a late or repeated
 * provider report (an `expired` after `paid`) can never undo what already happened.
 */
const STAGE: Record<PaymentRowStatus, number> = {
  creating: -1,
  open: 0,
  pending: 1,
  authorized: 2,
  paid: 3,
  canceled: 3,
  expired: 3,
  failed: 3,
  rejected: 3,
  refunded: 4,
  charged_back: 4,
};

export function canMoveTo(current: PaymentRowStatus, next: PaymentRowStatus): boolean {
  if (STAGE[next] <= STAGE[current]) return false;
  // Money can only come back from a payment that was paid (or one whose creation we are still
  // recording, when the provider tells us about it only now).
  if (STAGE[next] === 4) return current === 'paid' || current === 'creating';
  // Nothing comes after a refusal: the provider holds no payment for it.
  return current !== 'rejected';
}

/**
 * A payment we gave up on (`rejected`: refused, or not created within a day) that the provider holds
 * after all — found by our id in its metadata, by a webhook or reconciliation. The money decides: it
 * takes the provider's status, whatever that is.
 */
export function isLateAttachment(
  current: { id: string; status: PaymentRowStatus; provider_payment_id: string | null },
  remote: { reference: string | null },
): boolean {
  return current.status === 'rejected' && current.provider_payment_id === null && remote.reference === current.id;
}

/** Statuses in which a payment has settled: features (links, billing, follow-ups, the store) react to these. */
export const SETTLED_STATUSES: ReadonlySet<PaymentRowStatus> = new Set([
  'paid',
  'failed',
  'expired',
  'canceled',
  'rejected',
  'refunded',
  'charged_back',
]);

/**
 * Statuses in which the provider ended a payment without money (it failed, expired or was canceled):
 * a charge has failed and a follow-up takes over, a store order stays payable. The one list of them.
 */
export const UNPAID_STATUSES: ReadonlySet<PaymentRowStatus> = new Set(['failed', 'expired', 'canceled']);

/** Unpaid, or never made at the provider (`rejected`): a payment that ended and brought no money. */
export const ENDED_WITHOUT_MONEY: ReadonlySet<PaymentRowStatus> = new Set([...UNPAID_STATUSES, 'rejected']);
