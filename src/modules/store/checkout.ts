import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { AppError, ConflictError, ValidationError, errorMessage } from '../../errors';
import { formatCents } from '../../money';
import { ShopApiError } from '../../integrations/errors';
import type { StoreClient } from '../../integrations/platform';
import type { StoreOrder } from '../../integrations/records';
import { toDbDateTime } from '../../time';
import { ProviderRejectedError } from '../../providers/errors';
import { ordersRepository, type OrderRow } from '../orders/repository';
import { upsertStoreOrders } from '../orders/storeOrdersRepository';
import { resumePayment } from '../payments/pipeline';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import type { CheckoutOrder, CheckoutRequest } from '../payments/orderCheckouts';
import { applyProviderPayment } from '../payments/statusChange';
import { productsRepository } from '../products/repository';
import { upsertStoreProducts } from '../products/storeProductsRepository';
import { holdsSubscriptionProducts } from './orderSubscriptions';
import { requireConnectedStore, storeClient } from './storeClient';

const CREATE_FAILED = 'Could not create payment. Some fields contain invalid data';
/**
 * What a store order that pays nothing now (a free trial without a sign-up fee) is charged to obtain its mandate: 0.01,
 * the smallest first payment every method takes (as a mandate link's default). The cent is kept, as for links.
 */
const MANDATE_FIRST_AMOUNT = 1;
/** The buyer is waiting at the checkout: the store is asked once more at most. */
const CHECKOUT_RETRIES = 1;

/** The store could not be asked about the order; the checkout may retry. */
export class StoreUnavailableError extends AppError {
  constructor(message: string) {
    super(502, message, 'store_unavailable', true);
  }
}

/**
 * Reads the order from the store as it is now (a checkout order is seconds old: no sync has seen it
 * yet, and the buyer may have changed the cart), with any of its products not synced yet, and writes
 * both here as a sync would.
 */
async function freshStoreOrder(ctx: AppContext, store: StoreClient, accountId: string, shopOrderId: number): Promise<void> {
  let order: StoreOrder;
  try {
    order = await store.fetchOrder(shopOrderId);
  } catch (error) {
    // An order the store answered in a shape we cannot use is not the store's failure: told below.
    if (!(error instanceof ShopApiError)) throw error;
    if (error.status === 404) throw ValidationError.field(CREATE_FAILED, 'shop_order_id', `The store has no order ${shopOrderId}.`);
    throw new StoreUnavailableError(`The store could not be asked for order ${shopOrderId}: ${error.message}`);
  }
  if (order.status === 'draft')
    throw ValidationError.field(CREATE_FAILED, 'shop_order_id', `Order ${shopOrderId} is not placed yet (a checkout draft in the store).`);
  const productIds = [...new Set(order.lines.map((line) => line.shopProductId))];
  const known = await productsRepository.idsOfShopProducts(ctx.db, accountId, productIds);
  // A variation not synced yet is read with its variable product.
  const missing = [
    ...new Set(order.lines.filter((line) => !known.has(line.shopProductId)).map((line) => line.parentShopProductId ?? line.shopProductId)),
  ];
  const now = toDbDateTime(ctx.clock.now());
  if (missing.length) await upsertStoreProducts(ctx.db, accountId, await store.fetchProducts(missing), now);
  await upsertStoreOrders(ctx.db, accountId, [order], now);
}

/** A 409 naming the order's payment that must end before another one can be made. */
const paymentInProgress = (payment: PaymentRow, shopOrderId: number, why: string) =>
  new ConflictError(
    `Payment ${payment.id} of order ${shopOrderId} is ${payment.status} and ${why}; wait for its outcome before making another`,
    'payment_in_progress',
  );

const paidAlready = (shopOrderId: number) => ValidationError.field(CREATE_FAILED, 'shop_order_id', `Order ${shopOrderId} is paid already.`);

/** The order's payments the payer may still complete, newest first; one still `creating` is first brought to its outcome. */
async function paymentsUnderWay(ctx: AppContext, account: Account, order: OrderRow, shopOrderId: number): Promise<PaymentRow[]> {
  const rows = await paymentsRepository.ofOrderInStatuses(ctx.db, account.id, order.id, ['creating', 'open', 'pending', 'authorized']);
  const current: PaymentRow[] = [];
  for (const row of rows) {
    try {
      // An answer lost earlier: the provider may hold it, so it counts once we know.
      current.push(row.status === 'creating' ? await resumePayment(ctx, account, row, { answeredInRequest: false }) : row);
    } catch (error) {
      if (!(error instanceof ProviderRejectedError)) throw error; // refused: nothing exists at the provider
    }
  }
  if (current.some((payment) => payment.status === 'paid')) throw paidAlready(shopOrderId);
  return current.filter((payment) => ['open', 'pending', 'authorized'].includes(payment.status));
}

/** Cancels an open payment at the provider (the payer chose another method); one it will not cancel is refused with a 409. */
async function cancelForAnother(ctx: AppContext, account: Account, payment: PaymentRow, shopOrderId: number): Promise<void> {
  if (!payment.provider_payment_id) throw new Error(`open payment ${payment.id} has no provider payment`);
  const provider = await ctx.providers.forAccount(account);
  let answered;
  try {
    answered = await provider.cancelPayment(payment.provider_payment_id);
  } catch (error) {
    if (error instanceof ProviderRejectedError) throw paymentInProgress(payment, shopOrderId, 'the provider refused to cancel it');
    throw error; // the provider could not be asked: the client may retry
  }
  const recorded = await applyProviderPayment(ctx, payment, answered, { answeredInRequest: false });
  if (recorded.status !== 'canceled') throw paymentInProgress(recorded, shopOrderId, 'could not be canceled');
  ctx.logger.info('open payment of a store order canceled for another method', {
    accountId: account.id,
    paymentId: payment.id,
    method: payment.method,
  });
}

/**
 * One payment at a time per order: the open payment this request asks for again is reused; an open
 * one of another method (or payer, or amount) is cancelled at the provider first; a pending or
 * authorized one cannot be switched any more, so the request is refused (409 naming it).
 */
async function oneAtATime(
  ctx: AppContext,
  account: Account,
  order: OrderRow,
  shopOrderId: number,
  wanted: CheckoutRequest & { amount: number; sequenceType: string },
): Promise<PaymentRow | null> {
  const underWay = await paymentsUnderWay(ctx, account, order, shopOrderId);
  const settling = underWay.find((payment) => payment.status !== 'open');
  if (settling) throw paymentInProgress(settling, shopOrderId, 'can no longer be replaced');
  const same = underWay.find(
    (payment) =>
      payment.checkout_url !== null &&
      payment.customer_id === wanted.customerId &&
      Number(payment.amount) === wanted.amount &&
      payment.sequence_type === wanted.sequenceType &&
      (wanted.method === null || payment.method === wanted.method),
  );
  for (const other of underWay) if (other !== same) await cancelForAnother(ctx, account, other, shopOrderId);
  return same ?? null;
}

/**
 * The Order a checkout payment (`shop_order_id` on POST /api/v2/payments) is for, checked: the
 * store is connected and has the order, it is not paid already, and the payment asks its total.
 * With a payment of the order still under way, see oneAtATime.
 */
export async function checkoutOrder(
  ctx: AppContext,
  account: Account,
  shopOrderId: number,
  amount: number,
  currency: string,
  request: CheckoutRequest,
): Promise<CheckoutOrder> {
  const shop = await requireConnectedStore(ctx, account.id, 'Could not create payment');
  try {
    await freshStoreOrder(ctx, storeClient(ctx, shop, CHECKOUT_RETRIES), account.id, shopOrderId);
  } catch (error) {
    if (error instanceof AppError) throw error;
    // The store's own answer is worth telling the client; anything else (our database) is for the log only.
    const cause = error instanceof ShopApiError ? `: ${error.message}` : '';
    if (!cause)
      ctx.logger.error('store order could not be read for a checkout', {
        accountId: account.id,
        shopOrderId,
        error: errorMessage(error),
      });
    throw new StoreUnavailableError(`The store's order ${shopOrderId} could not be read${cause}`);
  }
  const order = await ordersRepository.findByShopOrderId(ctx.db, account.id, shopOrderId);
  if (!order) throw new Error(`store order ${shopOrderId} was written but is not found`);
  const paid = await paymentsRepository.ofOrderInStatuses(ctx.db, account.id, order.id, ['paid']);
  if (paid.length || order.status === 'paid' || order.status === 'completed') throw paidAlready(shopOrderId);
  if (order.status === 'cancelled')
    throw ValidationError.field(CREATE_FAILED, 'shop_order_id', `Order ${shopOrderId} is cancelled in the store.`);
  if (order.currency !== currency)
    throw ValidationError.field(CREATE_FAILED, 'currency', `The currency must be the order's, ${order.currency}.`);
  if (Number(order.total_amount) !== amount) {
    throw ValidationError.field(
      CREATE_FAILED,
      'amount',
      `The amount must be the order's total, ${formatCents(Number(order.total_amount))}.`,
    );
  }
  const subscription = await holdsSubscriptionProducts(ctx.db, order);
  if (amount === 0 && !subscription)
    throw ValidationError.field(CREATE_FAILED, 'amount', 'The amount must be greater than 0: the order has nothing to pay.');
  // A free trial's order (0.00) still leaves a mandate: the first payment is the smallest one the provider takes.
  const chargeAmount = amount === 0 ? MANDATE_FIRST_AMOUNT : amount;
  const inProgress = await oneAtATime(ctx, account, order, shopOrderId, {
    ...request,
    amount: chargeAmount,
    sequenceType: subscription ? 'first' : 'oneoff',
  });
  return { order, subscription, chargeAmount, inProgress };
}

/** Payments for a store order (`shop_order_id`) find it here: registered at start. */
export function registerStoreCheckout(ctx: AppContext): void {
  ctx.orderCheckouts.resolveWith((account, { shopOrderId, amount, currency, customerId, method }) =>
    checkoutOrder(ctx, account, shopOrderId, amount, currency, { customerId, method }),
  );
}
