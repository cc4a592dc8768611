import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/connect';
import { newId } from '../../ids';
import { formatCents, type Cents } from '../../money';
import { deliverEvent } from '../../events/delivery';
import { enqueueAccountEvent, insertEvent } from '../../events/events';
import type { ProviderRefund } from '../../providers/types';
import { toDbDateTime } from '../../time';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import { FINAL_REFUND_STATUSES, refundsRepository, RELEASED_REFUND_STATUSES, type RefundRow, type RefundRowStatus } from './repository';

/*
 * A refund's status changes: what the provider says of our refunds, refunds made at the provider without us, and
 * what goes with each change in its transaction (the reservation released, the events, the settled hook).
 */

/** The origin key of a refund made at the provider without us (its dashboard): recorded once per provider refund. */
export const externalRefundKey = (providerRefundId: string) => `external-refund-${providerRefundId}`;

/** The event names of a move from one refund status to another. */
function eventsOf(from: RefundRowStatus, to: RefundRowStatus): string[] {
  const names: string[] = [];
  if (from === 'creating' && !RELEASED_REFUND_STATUSES.has(to)) names.push('refund.created');
  if (to === 'refunded') names.push('refund.refunded');
  if (RELEASED_REFUND_STATUSES.has(to)) names.push('refund.failed');
  return names;
}

/**
 * Moves a refund from the status it has in `row` to `to`, if it still has it: the status, the release of its
 * reservation (failed, canceled), its events and the settle hook commit together. The row as it now is.
 */
export async function moveRefund(ctx: AppContext, row: RefundRow, to: RefundRowStatus, changes: Partial<RefundRow>): Promise<RefundRow> {
  const now = toDbDateTime(ctx.clock.now());
  const after: RefundRow = { ...row, ...changes, status: to, updated_at: now };
  const eventIds = await ctx.db.transaction(async (trx) => {
    if (!(await refundsRepository.updateIfStatus(trx, row.account_id, row.id, row.status, { ...changes, status: to, updated_at: now })))
      return null;
    if (RELEASED_REFUND_STATUSES.has(to)) await refundsRepository.release(trx, row.account_id, row.payment_id, Number(row.amount));
    if (to === 'refunded') await ctx.refundSettlements.run(trx, after);
    return enqueueRefundEvents(trx, after, row.status, now);
  });
  const current = await refundsRepository.find(ctx.db, row.account_id, row.id);
  if (!current) throw new Error(`Refund ${row.id} disappeared`);
  if (eventIds === null) return current;
  ctx.logger.info('refund status changed', { accountId: row.account_id, refundId: row.id, from: row.status, to });
  for (const eventId of eventIds) ctx.background.run('deliver webhook event', () => deliverEvent(ctx, eventId));
  return current;
}

function refundEventBody(row: RefundRow): Record<string, unknown> {
  return { payment_id: row.payment_id, status: row.status, amount: formatCents(Number(row.amount)), currency: row.currency };
}

/**
 * The events of a refund's move, in its transaction: to the account's endpoint, and to its payment's webhook_url
 * (`{"id": "pay_…", "event": "refund.refunded", "refund_id": …}`), where the store's plugin learns of a refund whose
 * answer it lost, or one made outside the store, and records it. Answers the events' ids.
 */
async function enqueueRefundEvents(trx: Knex.Transaction, row: RefundRow, from: RefundRowStatus, now: string): Promise<string[]> {
  const names = eventsOf(from, row.status);
  if (names.length === 0) return [];
  const payment = await paymentsRepository.find(trx, row.account_id, row.payment_id);
  const ids: string[] = [];
  for (const name of names) {
    const id = await enqueueAccountEvent(trx, row.account_id, { name, resourceId: row.id, body: refundEventBody(row) }, now);
    if (id) ids.push(id);
    if (!payment?.webhook_url) continue;
    const { payment_id: paymentId, ...facts } = refundEventBody(row);
    const payload = JSON.stringify({ id: paymentId, event: name, refund_id: row.id, ...facts });
    ids.push(
      await insertEvent(
        trx,
        { accountId: row.account_id, paymentId: payment.id, resourceId: row.id, event: name, payload, url: payment.webhook_url },
        now,
      ),
    );
  }
  return ids;
}

/** Applies what the provider says about one of our refunds; a settled refund stays as it is. */
export async function applyProviderRefund(ctx: AppContext, row: RefundRow, remote: ProviderRefund): Promise<RefundRow> {
  if (FINAL_REFUND_STATUSES.has(row.status)) return row;
  if (row.status === remote.status && row.provider_refund_id === remote.id) return row;
  return moveRefund(ctx, row, remote.status, { provider_refund_id: remote.id, next_attempt_at: null });
}

/**
 * A refund made at the provider without us (in its dashboard), noticed when its payment is read: recorded as a
 * refund of ours (origin key `external-refund-<provider refund id>`, unique per account, so a sync run twice or two
 * webhook calls at the same moment record it once), its amount taken from the payment, and — when it went out —
 * credited like any refund. Nothing is refused: the money went out already.
 */
async function recordRefundMadeElsewhere(
  ctx: AppContext,
  providerName: string,
  payment: PaymentRow,
  remote: ProviderRefund,
): Promise<void> {
  const originKey = externalRefundKey(remote.id);
  if (await refundsRepository.findByOriginKey(ctx.db, payment.account_id, originKey)) return;
  const now = toDbDateTime(ctx.clock.now());
  const row: RefundRow = {
    id: newId('rfd'),
    account_id: payment.account_id,
    payment_id: payment.id,
    amount: remote.amount,
    currency: remote.currency,
    description: `Refunded at ${providerName} without this service (${remote.id})`.slice(0, 191),
    status: remote.status,
    provider_refund_id: remote.id,
    origin_key: originKey,
    create_attempts: 0,
    next_attempt_at: null,
    failure_reason: null,
    sequence: null,
    reference: null,
    created_at: toDbDateTime(remote.createdAt),
    updated_at: now,
  };
  let eventIds: string[];
  try {
    eventIds = await ctx.db.transaction(async (trx) => {
      row.sequence = await refundsRepository.takeForRefundMadeElsewhere(trx, payment.account_id, payment.id, Number(remote.amount));
      await refundsRepository.insert(trx, row);
      if (row.status === 'refunded') await ctx.refundSettlements.run(trx, row);
      return enqueueRefundEvents(trx, row, 'creating', now);
    });
  } catch (error) {
    // Another sync of the same payment recorded it a moment ago: its unique origin key let one row in.
    if (isUniqueViolation(error)) return;
    throw error;
  }
  ctx.logger.warn('a refund made at the provider without this service was recorded', {
    accountId: row.account_id,
    paymentId: row.payment_id,
    refundId: row.id,
    providerRefundId: remote.id,
    amount: row.amount,
    status: row.status,
  });
  for (const eventId of eventIds) ctx.background.run('deliver webhook event', () => deliverEvent(ctx, eventId));
}

/**
 * Reads the refunds of a payment at the provider and applies those that are ours (by our id in their metadata):
 * The provider calls the payment's webhook when one of its refunds changes. `providerRefunded` is the payment's refunded
 * amount at the provider: when it is more than our refunds account for, a refund was made there without us, and is
 * recorded (recordRefundMadeElsewhere). Asks the provider nothing when neither applies.
 */
export async function syncRefundsOf(ctx: AppContext, payment: PaymentRow, providerRefunded?: Cents): Promise<void> {
  if (!payment.provider_payment_id) return;
  const rows = await refundsRepository.forPayment(ctx.db, payment.account_id, payment.id);
  const ours = rows.filter((row) => !FINAL_REFUND_STATUSES.has(row.status));
  // What the provider counts of ours: refunds it confirmed that did not fail (a `creating` one may be unknown to it).
  const accounted = rows
    .filter((row) => row.status !== 'creating' && !RELEASED_REFUND_STATUSES.has(row.status))
    .reduce((sum, row) => sum + Number(row.amount), 0);
  const madeElsewhere = providerRefunded !== undefined && providerRefunded > accounted;
  if (ours.length === 0 && !madeElsewhere) return;
  const provider = await ctx.providers.forAccount({ id: payment.account_id });
  const remote = await provider.listRefunds(payment.provider_payment_id);
  const isOurs = (refund: ProviderRefund, row: RefundRow) =>
    refund.reference === row.id || (row.provider_refund_id !== null && refund.id === row.provider_refund_id);
  for (const row of ours) {
    const found = remote.find((refund) => isOurs(refund, row));
    if (found) await applyProviderRefund(ctx, row, found);
  }
  if (!madeElsewhere) return;
  // Our rows again, read after the list: a refund of ours made while it was asked for has its row committed before
  // the provider had it (our row first), so it is found here and never taken for one made elsewhere.
  const known = await refundsRepository.forPayment(ctx.db, payment.account_id, payment.id);
  // Oldest first, so that their sequence follows the order they were made in.
  const elsewhere = remote
    .filter((refund) => !RELEASED_REFUND_STATUSES.has(refund.status) && !known.some((row) => isOurs(refund, row)))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  for (const refund of elsewhere) await recordRefundMadeElsewhere(ctx, provider.name, payment, refund);
}
