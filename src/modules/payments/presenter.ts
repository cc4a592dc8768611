import type { Config } from '../../config';
import { formatCents } from '../../money';
import { formatDateTime, formatNullableDateTime } from '../../time';
import type { OutboundEventRow } from '../../events/repository';
import type { PaymentRow, PaymentStatusChangeRow } from './repository';
import type { PaymentDetailResponse, PaymentListItem, PaymentResponse } from './schemas';

/** docs/api.md, Payment: the answer to a create. A new payment is `open` or `pending`. */
export function presentCreatedPayment(row: PaymentRow): PaymentResponse {
  return {
    id: row.id,
    provider_payment_id: row.provider_payment_id ?? '',
    status: row.status === 'pending' ? 'pending' : 'open',
    provider_checkout_url: row.checkout_url ?? '',
  };
}

export function presentPaymentDetail(
  row: PaymentRow,
  history: Array<Pick<PaymentStatusChangeRow, 'status' | 'changed_at'>>,
  deliveries: OutboundEventRow[],
  config: Pick<Config, 'APP_TIMEZONE'>,
): PaymentDetailResponse {
  const zone = config.APP_TIMEZONE;
  return {
    id: row.id,
    provider_payment_id: row.provider_payment_id,
    status: row.status,
    amount: formatCents(row.amount),
    currency: row.currency,
    description: row.description,
    method: row.method,
    created_at: formatDateTime(row.created_at, config.APP_TIMEZONE),
    paid_at: formatNullableDateTime(row.paid_at, config.APP_TIMEZONE),
    failure_reason: row.failure_reason,
    failure_code: row.failure_code,
    status_history: history.map((change) => ({ status: change.status, changed_at: formatDateTime(change.changed_at, zone) })),
    webhook_deliveries: deliveries.map((event) => ({
      id: event.id,
      event: event.event,
      status: event.status,
      attempts: event.attempts,
      last_status_code: event.last_status_code,
      last_error: event.last_error,
      next_attempt_at: formatNullableDateTime(event.next_attempt_at, zone),
      delivered_at: formatNullableDateTime(event.delivered_at, zone),
      created_at: formatDateTime(event.created_at, zone),
    })),
  };
}

/** Payments of a list page (`GET /api/v2/payments`). */
export function presentPaymentList(rows: PaymentRow[], config: Pick<Config, 'APP_TIMEZONE'>): PaymentListItem[] {
  return rows.map((row) => ({
    id: row.id,
    provider_payment_id: row.provider_payment_id,
    status: row.status,
    sequence_type: row.sequence_type,
    amount: formatCents(row.amount),
    currency: row.currency,
    description: row.description,
    method: row.method,
    customer_id: row.customer_id,
    subscription_id: row.subscription_id,
    created_at: formatDateTime(row.created_at, config.APP_TIMEZONE),
    paid_at: formatNullableDateTime(row.paid_at, config.APP_TIMEZONE),
    failure_reason: row.failure_reason,
    failure_code: row.failure_code,
  }));
}
