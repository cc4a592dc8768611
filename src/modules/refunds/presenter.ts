import type { Config } from '../../config';
import { formatCents } from '../../money';
import { formatDateTime } from '../../time';
import type { RefundRow } from './repository';
import type { RefundResponse } from './schemas';

/** A refund as the API answers it. */
export function presentRefund(row: RefundRow, config: Pick<Config, 'APP_TIMEZONE'>): RefundResponse {
  return {
    id: row.id,
    payment_id: row.payment_id,
    provider_refund_id: row.provider_refund_id,
    status: row.status,
    amount: formatCents(Number(row.amount)),
    currency: row.currency,
    description: row.description,
    failure_reason: row.failure_reason,
    reference: row.reference,
    origin_key: row.origin_key,
    created_at: formatDateTime(row.created_at, config.APP_TIMEZONE),
  };
}
