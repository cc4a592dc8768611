import type { Account, AppContext } from '../../context';
import { NotFoundError, ValidationError } from '../../http/errors';
import { newId } from '../../ids';
import type { ProviderPayment } from '../../providers/types';
import { toDbDateTime } from '../../time';
import { providerWebhookUrl } from '../../webhooks/inbound/url';
import { deliverEvent } from '../../webhooks/outbound/delivery';
import { enqueuePaymentEvent } from '../../webhooks/outbound/events';
import { outboundEventsRepository } from '../../webhooks/outbound/repository';
import { customersRepository } from '../customers/repository';
import { paymentsRepository, type PaymentRow } from './repository';
import type { CreatePaymentInput } from './schemas';
import { canMoveTo } from './transitions';

const CREATE_FAILED = 'Could not create payment. Some fields contain invalid data';

/**
 * Creates a one-off payment with a checkout at the provider. Our row is written first; its id is the
 * provider idempotency key, so a retried provider call can never create a second payment.
 */
export async function createPayment(ctx: AppContext, account: Account, input: CreatePaymentInput): Promise<PaymentRow> {
  const customer = await customersRepository.findByProviderCustomerId(ctx.db, account.id, input.provider_customer_id);
  if (!customer) {
    throw ValidationError.field(CREATE_FAILED, 'provider_customer_id', 'The selected provider customer id is invalid.');
  }
  const now = toDbDateTime(ctx.clock.now());
  const row: PaymentRow = {
    id: newId('pay'),
    account_id: account.id,
    customer_id: customer.id,
    subscription_id: null,
    provider_payment_id: null,
    provider_customer_id: input.provider_customer_id,
    provider_mandate_id: null,
    provider_profile_id: input.provider_profile_id ?? null,
    sequence_type: 'oneoff',
    status: 'open',
    amount: input.amount,
    currency: input.currency,
    description: input.description,
    method: input.method ?? null,
    redirect_url: input.redirect_url,
    webhook_url: input.webhook_url ?? null,
    checkout_url: null,
    failure_reason: null,
    failure_code: null,
    paid_at: null,
    created_at: now,
    updated_at: now,
  };
  await paymentsRepository.insert(ctx.db, row);
  let created: ProviderPayment;
  try {
    const provider = await ctx.providers.forAccount(account);
    created = await provider.createPayment(
      {
        amount: row.amount,
        currency: row.currency,
        description: row.description,
        sequenceType: 'oneoff',
        customerId: input.provider_customer_id,
        mandateId: null,
        method: row.method,
        redirectUrl: row.redirect_url,
        webhookUrl: providerWebhookUrl(ctx.config.publicUrl, account),
        reference: row.id,
      },
      `payment-${row.id}`,
    );
  } catch (error) {
    // Nothing was created at the provider for this row; do not leave a payment without one.
    await paymentsRepository.delete(ctx.db, account.id, row.id);
    throw error;
  }
  const stored: PaymentRow = {
    ...row,
    provider_payment_id: created.id,
    status: created.status,
    method: created.method ?? row.method,
    checkout_url: created.checkoutUrl,
  };
  await paymentsRepository.update(ctx.db, account.id, row.id, {
    provider_payment_id: stored.provider_payment_id,
    status: stored.status,
    method: stored.method,
    checkout_url: stored.checkout_url,
  });
  await paymentsRepository.recordStatus(ctx.db, { account_id: account.id, payment_id: row.id, status: stored.status, changed_at: now });
  return stored;
}

export async function getPayment(ctx: AppContext, account: Account, id: string) {
  const row = await paymentsRepository.find(ctx.db, account.id, id);
  if (!row) throw new NotFoundError('Payment');
  const history = await paymentsRepository.statusHistory(ctx.db, account.id, id);
  const deliveries = await outboundEventsRepository.forPayment(ctx.db, account.id, id);
  return { row, history, deliveries };
}

/**
 * Brings our payment up to date with the provider. The provider is asked (a report of a change is
 * never trusted by itself); statuses only move forward, and each change is recorded once.
 * Unknown payment ids change nothing.
 */
export async function syncPaymentFromProvider(ctx: AppContext, accountId: string, providerPaymentId: string): Promise<PaymentRow | null> {
  const row = await paymentsRepository.findByProviderPaymentId(ctx.db, accountId, providerPaymentId);
  if (!row) return null;
  const provider = await ctx.providers.forAccount({ id: accountId });
  const remote = await provider.getPayment(providerPaymentId);
  if (!canMoveTo(row.status, remote.status)) return row;
  const now = toDbDateTime(ctx.clock.now());
  const changes: Partial<PaymentRow> = {
    status: remote.status,
    method: remote.method ?? row.method,
    paid_at: remote.paidAt ? toDbDateTime(remote.paidAt) : row.paid_at,
    failure_reason: remote.failureReason,
    failure_code: remote.failureCode,
    checkout_url: remote.checkoutUrl ?? row.checkout_url,
    updated_at: now,
  };
  // The status, its history entry and the client's event commit together or not at all.
  const { moved, eventId } = await ctx.db.transaction(async (trx) => {
    const updated = await paymentsRepository.updateStatusIfUnchanged(trx, accountId, row.id, row.status, changes);
    if (!updated) return { moved: false, eventId: null };
    await paymentsRepository.recordStatus(trx, { account_id: accountId, payment_id: row.id, status: remote.status, changed_at: now });
    return { moved: true, eventId: await enqueuePaymentEvent(trx, row, remote.status, now) };
  });
  if (moved) ctx.logger.info('payment status changed', { accountId, paymentId: row.id, from: row.status, to: remote.status });
  // A first attempt right away; the delivery job retries whatever this does not deliver.
  if (eventId) ctx.background.run('deliver webhook event', () => deliverEvent(ctx, eventId));
  return moved ? { ...row, ...changes } : ((await paymentsRepository.find(ctx.db, accountId, row.id)) ?? row);
}
