import type { MethodSequenceType } from '../../providers/types';
import type { ListFilterValues } from '../../db/tenantTable';
import type { Page, PageRequest } from '../../paging';
import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { NotFoundError, ValidationError } from '../../errors';
import { ProviderNotFoundError } from '../../providers/errors';
import type { IdempotencyScope } from '../../db/idempotencyScope';
import { outboundEventsRepository } from '../../events/repository';
import { accountsRepository } from '../accounts/repository';
import { customersRepository } from '../customers/repository';
import { refuseUnchargeable } from '../../providers/amountLimits';
import { startPayment } from './pipeline';
import { paymentsRepository, type PaymentRow } from './repository';
import { PAYMENT_METHODS, type CreatePaymentInput } from './schemas';
import { applyProviderPayment } from './statusChange';

const CREATE_FAILED = 'Could not create payment. Some fields contain invalid data';

/**
 * Creates a one-off payment with a checkout at the provider (docs/api.md, Payment), through the payment pipeline.
 * The account's configured provider profile wins over the one in the request: a client cannot move
 * a payment to another profile of the organization.
 */
export async function createPayment(
  ctx: AppContext,
  account: Account,
  input: CreatePaymentInput,
  idempotency: IdempotencyScope,
): Promise<PaymentRow> {
  const customer = await customersRepository.findByProviderCustomerId(ctx.db, account.id, input.provider_customer_id);
  if (!customer) {
    throw ValidationError.field(CREATE_FAILED, 'provider_customer_id', 'The selected provider customer id is invalid.');
  }
  // A retry of a request whose payment was written resumes it, without asking the store again.
  const checkout =
    input.shop_order_id === undefined || idempotency.resumedResourceId
      ? null
      : await ctx.orderCheckouts.resolve(account, {
          shopOrderId: input.shop_order_id,
          amount: input.amount,
          currency: input.currency,
          customerId: customer.id,
          method: input.method ?? null,
        });
  // One payment at a time per order: the open one this request asks for again is the answer (201, like every create).
  if (checkout?.inProgress) return checkout.inProgress;
  // Subscription products are charged later on the mandate this payment leaves.
  const sequenceType = checkout?.subscription ? 'first' : 'oneoff';
  // A retry of a request whose payment was written resumes it as it was accepted.
  if (!idempotency.resumedResourceId) {
    await refuseUnchargeable(ctx, account, {
      sequenceType,
      currency: input.currency,
      currencyField: 'currency',
      methods: input.method ? [input.method] : null,
      amounts: [{ amount: checkout?.chargeAmount ?? input.amount, field: 'amount' }],
      message: CREATE_FAILED,
    });
  }
  const settings = await accountsRepository.providerSettings(ctx.db, account.id);
  return startPayment(
    ctx,
    account,
    {
      purpose: checkout ? 'order' : 'api',
      purposeId: checkout?.order.id ?? null,
      // One payment under way per order, whatever races between requests (409 naming the other one).
      inProgressKey: checkout ? `order-${checkout.order.id}` : undefined,
      customer: { id: customer.id, providerCustomerId: input.provider_customer_id },
      sequenceType,
      mandateId: null,
      // A store order's free trial (total 0.00) still needs a mandate: its payment is the provider's smallest.
      amount: checkout?.chargeAmount ?? input.amount,
      currency: input.currency,
      description: input.description,
      method: input.method ?? null,
      redirectUrl: input.redirect_url,
      webhookUrl: input.webhook_url ?? null,
      profileId: settings?.provider_profile_id ?? input.provider_profile_id ?? null,
    },
    idempotency,
  );
}

/** `GET /api/v2/payments` (extension): one page of the account's payments, filtered by the given columns. */
export function listPayments(
  ctx: AppContext,
  account: Account,
  request: PageRequest,
  filters: ListFilterValues = {},
): Promise<Page<PaymentRow>> {
  return paymentsRepository.pageFiltered(ctx.db, account.id, filters, request);
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
 *
 * A provider payment we do not know by its id may still be ours: one whose creation answer was lost
 * (our row still `creating`), or one we gave up on (`rejected`) that was made after all. It carries
 * our id in its metadata, and is attached to that row whatever its state (while the account has such
 * a row at all). Anything else (not ours, unknown to the provider) changes nothing.
 */
export async function syncPaymentFromProvider(ctx: AppContext, accountId: string, providerPaymentId: string): Promise<PaymentRow | null> {
  const known = await paymentsRepository.findByProviderPaymentId(ctx.db, accountId, providerPaymentId);
  // Webhook calls are unsigned: an id we do not know costs the provider a call only while one of
  // ours could be it, so made-up ids cannot spend the account's rate limit at the provider.
  if (!known && !(await paymentsRepository.anyAwaitingItsProviderPayment(ctx.db, accountId))) return null;
  const provider = await ctx.providers.forAccount({ id: accountId });
  if (known) {
    const remote = await provider.getPayment(providerPaymentId);
    const applied = await applyProviderPayment(ctx, known, remote, { answeredInRequest: false });
    // The provider calls the payment's webhook when one of its refunds changes too, also one made in its dashboard:
    // what hangs from the payment reacts (refunds register for it).
    await ctx.paymentFetches.run({ payment: applied, remote });
    return applied;
  }
  let remote;
  try {
    remote = await provider.getPayment(providerPaymentId);
  } catch (error) {
    if (error instanceof ProviderNotFoundError) return null;
    throw error;
  }
  const ours = remote.reference ? await paymentsRepository.find(ctx.db, accountId, remote.reference) : undefined;
  if (!ours) return null;
  if (ours.provider_payment_id !== null && ours.provider_payment_id !== remote.id) {
    // Never expected: our key and look-ups make one provider payment per row. Money is involved, so say it loudly.
    ctx.logger.error('the provider holds a second payment for one of ours; refund one of them', {
      accountId,
      paymentId: ours.id,
      providerPaymentId: remote.id,
    });
    return null;
  }
  ctx.logger.info('provider payment attached to our payment by its reference', {
    accountId,
    paymentId: ours.id,
    providerPaymentId: remote.id,
    status: ours.status,
  });
  return applyProviderPayment(ctx, ours, remote, { answeredInRequest: false });
}

/**
 * The spec's methods the account's provider has enabled, in the spec's order: a checkout that offers
 * these never offers one the provider would refuse.
 */
export async function offeredMethods(
  ctx: AppContext,
  account: Account,
  sequenceType?: MethodSequenceType,
): Promise<Array<(typeof PAYMENT_METHODS)[number]>> {
  const enabled = new Set(await (await ctx.providers.forAccount(account)).listMethods(sequenceType));
  return PAYMENT_METHODS.filter((method) => enabled.has(method));
}
