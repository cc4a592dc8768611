import type { Knex } from 'knex';
import { newId } from '../../ids';
import type { PaymentRowStatus } from '../../modules/payments/transitions';
import { outboundEventsRepository } from './repository';

/** The JSON body of an event (DESIGN.md): a receiver may also fetch GET /api/v2/payments/{id}. */
export function paymentEventPayload(paymentId: string, status: PaymentRowStatus): string {
  return JSON.stringify({ id: paymentId, event: `payment.${status}`, status });
}

/**
 * Writes a payment's status change into the outbox. Called inside the transaction that changes the
 * status, so an event exists exactly when the change does, whatever crashes afterwards.
 */
export async function enqueuePaymentEvent(
  trx: Knex.Transaction,
  payment: { id: string; account_id: string; webhook_url: string | null },
  status: PaymentRowStatus,
  now: string,
): Promise<string | null> {
  if (!payment.webhook_url) return null;
  const id = newId('evt');
  await outboundEventsRepository.insert(trx, {
    id,
    account_id: payment.account_id,
    payment_id: payment.id,
    event: `payment.${status}`,
    payload: paymentEventPayload(payment.id, status),
    url: payment.webhook_url,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    delivered_at: null,
    created_at: now,
  });
  return id;
}
