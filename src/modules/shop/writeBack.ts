import type { Knex } from 'knex';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { formatCents } from '../../money';
import { ShopApiError } from '../../shop/woocommerce/errors';
import type { WooClient } from '../../shop/woocommerce/client';
import { SERVICE_ORDER_ID_META } from '../../shop/woocommerce/orderMapping';
import { wooOrder, type WooOrder } from '../../shop/woocommerce/schemas';
import { toDbDateTime } from '../../time';
import { ordersRepository, type OrderRow } from '../orders/repository';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import { productsRepository } from '../products/repository';
import { connectedStore, storeClient } from './storeClient';
import type { ShopRow } from './repository';
import { shopTasksRepository, type ShopTaskRow } from './tasksRepository';

/** After this many attempts (about two days with the backoff below) a task is given up and logged. */
const MAX_ATTEMPTS = 12;
/** How long a taken task is left alone: longer than any one attempt with its retries takes. */
const HOLD_MS = 10 * 60 * 1000;
const BATCH = 50;
/** Quick retries within one attempt (a store's hiccup); longer outages wait for the task's next attempt. */
const TASK_CLIENT_RETRIES = 2;
/** Store order statuses that still wait for a payment: a paid write-back moves them to processing. */
const PAYABLE = new Set(['pending', 'failed', 'on-hold', 'checkout-draft']);

/** The meta keys the service writes on store orders (the plugin reads them too). */
export const META_PAYMENT_ID = '_rps_payment_id';
const META_ORDER_ID = SERVICE_ORDER_ID_META;

const backoffMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 6 * 60 * 60 * 1000);

/** A task that cannot succeed however often it is tried. */
class HopelessTask extends Error {}

const anyBody = z.unknown();
const orderList = z.array(wooOrder);

const paidNote = (payment: PaymentRow) =>
  `Paid: Mollie payment ${payment.provider_payment_id ?? payment.id} (${payment.currency} ${formatCents(Number(payment.amount))}), recurring payments service payment ${payment.id}.`;

async function writePaid(client: WooClient, order: OrderRow, payment: PaymentRow): Promise<void> {
  const shopOrderId = requireShopOrderId(order);
  const { body: current } = await client.get(`orders/${shopOrderId}`, wooOrder);
  const record = { transaction_id: payment.provider_payment_id ?? '', meta_data: [{ key: META_PAYMENT_ID, value: payment.id }] };
  // Never moves an order back: one the merchant completed (or the plugin marked paid) keeps its status.
  await client.put(`orders/${shopOrderId}`, PAYABLE.has(current.status) ? { ...record, set_paid: true, status: 'processing' } : record, wooOrder);
  const late = PAYABLE.has(current.status) || current.status === 'processing' || current.status === 'completed' ? '' : ` The order was ${current.status} in the store: refund the payment or reopen the order.`;
  await client.post(`orders/${shopOrderId}/notes`, { note: paidNote(payment) + late }, anyBody);
}

async function writeUnpaid(client: WooClient, order: OrderRow, payment: PaymentRow): Promise<void> {
  const note = `Mollie payment ${payment.provider_payment_id ?? payment.id} ${payment.status}${payment.failure_reason ? ` (${payment.failure_reason})` : ''}: the order is not paid and can still be paid.`;
  await client.post(`orders/${requireShopOrderId(order)}/notes`, { note }, anyBody);
}

function requireShopOrderId(order: OrderRow): number {
  if (order.shop_order_id === null) throw new HopelessTask(`order ${order.id} is not a store order`);
  return Number(order.shop_order_id);
}

const recordStoreOrder = (ctx: AppContext, db: Knex, order: OrderRow, made: WooOrder) =>
  ordersRepository.update(db, order.account_id, order.id, { shop_order_id: made.id, shop_order_number: made.number.slice(0, 64), updated_at: toDbDateTime(ctx.clock.now()) });

/**
 * A subscription's charge as an order in the store, child of the order the subscription came from.
 * Made once: the order carries our order id in its meta, and an attempt after one whose answer was
 * lost first looks among the parent's children for it.
 */
async function writeRenewal(ctx: AppContext, db: Knex, shop: ShopRow, task: ShopTaskRow, order: OrderRow, payment: PaymentRow): Promise<void> {
  const client = storeClient(ctx, shop, { retries: TASK_CLIENT_RETRIES });
  const parent = order.parent_order_id ? await ordersRepository.find(db, order.account_id, order.parent_order_id) : undefined;
  if (!parent || parent.shop_order_id === null) throw new HopelessTask(`renewal order ${order.id} has no store order to renew`);
  const parentShopId = Number(parent.shop_order_id);
  const paid = payment.status === 'paid';
  let shopOrderId = order.shop_order_id === null ? null : Number(order.shop_order_id);
  if (shopOrderId === null && task.attempts > 0) {
    const { body: children } = await client.get('orders', orderList, { parent: parentShopId, per_page: 100 });
    const mine = children.find((child) => child.meta_data.some((meta) => meta.key === META_ORDER_ID && meta.value === order.id));
    if (mine) {
      shopOrderId = mine.id;
      await recordStoreOrder(ctx, db, order, mine);
    }
  }
  if (shopOrderId === null) {
    const lines = await ordersRepository.linesOf(db, order.account_id, [order.id]);
    const products = await productsRepository.findMany(db, order.account_id, lines.map((line) => line.product_id));
    // Made without the client's own retries: a retry after a lost answer would make a second order.
    // The task's next attempt looks for it first instead.
    const { body: made } = await storeClient(ctx, shop, { retries: 0 }).post(
      'orders',
      {
        parent_id: parentShopId,
        status: paid ? 'processing' : 'failed',
        set_paid: paid,
        currency: order.currency,
        transaction_id: payment.provider_payment_id ?? '',
        billing: {
          first_name: order.first_name ?? '',
          last_name: order.last_name ?? '',
          company: order.organization_name ?? '',
          email: order.email ?? '',
          phone: order.phone ?? '',
          address_1: order.address ?? '',
          postcode: order.postal_code ?? '',
          city: order.city ?? '',
          country: order.country ?? '',
        },
        line_items: lines.flatMap((line) => {
          const shopProductId = products.get(line.product_id)?.shop_product_id;
          return shopProductId ? [{ product_id: Number(shopProductId), quantity: line.quantity }] : [];
        }),
        meta_data: [
          { key: META_ORDER_ID, value: order.id },
          { key: META_PAYMENT_ID, value: payment.id },
        ],
      },
      wooOrder,
    );
    shopOrderId = made.id;
    await recordStoreOrder(ctx, db, order, made);
  }
  const note = paid ? paidNote(payment) : `Renewal not paid: Mollie payment ${payment.provider_payment_id ?? payment.id} ${payment.status}${payment.failure_reason ? ` (${payment.failure_reason})` : ''}.`;
  await client.post(`orders/${shopOrderId}/notes`, { note: `Renewal of order #${parent.shop_order_number ?? parentShopId}. ${note}` }, anyBody);
}

async function perform(ctx: AppContext, task: ShopTaskRow): Promise<void> {
  const shop = await connectedStore(ctx, task.account_id);
  if (!shop) throw new Error('no store is connected to this account');
  const order = await ordersRepository.find(ctx.db, task.account_id, task.order_id);
  const payment = task.payment_id ? await paymentsRepository.find(ctx.db, task.account_id, task.payment_id) : undefined;
  if (!order || !payment) throw new HopelessTask(`task ${task.id} has no order or payment`);
  if (task.kind === 'renewal') return writeRenewal(ctx, ctx.db, shop, task, order, payment);
  const client = storeClient(ctx, shop, { retries: TASK_CLIENT_RETRIES });
  if (task.kind === 'paid') await writePaid(client, order, payment);
  else await writeUnpaid(client, order, payment);
}

/** One attempt of one task, if nobody else took it; the outcome is recorded on the task. */
export async function attemptShopTask(ctx: AppContext, task: ShopTaskRow): Promise<'done' | 'retry' | 'dead' | 'taken'> {
  const now = ctx.clock.now();
  if (!(await shopTasksRepository.take(ctx.db, task, toDbDateTime(new Date(now.getTime() + HOLD_MS))))) return 'taken';
  const taken = { ...task, attempts: task.attempts + 1 };
  try {
    await perform(ctx, task);
    await shopTasksRepository.done(ctx.db, task, toDbDateTime(ctx.clock.now()));
    ctx.logger.info('store updated', { accountId: task.account_id, orderId: task.order_id, task: task.kind });
    return 'done';
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const gone = error instanceof ShopApiError && error.status === 404;
    if (error instanceof HopelessTask || gone || taken.attempts >= MAX_ATTEMPTS) {
      await shopTasksRepository.dead(ctx.db, task, message);
      ctx.logger.error('store update given up', { accountId: task.account_id, orderId: task.order_id, task: task.kind, attempts: taken.attempts, error: message });
      return 'dead';
    }
    await shopTasksRepository.retryLater(ctx.db, task, toDbDateTime(new Date(ctx.clock.now().getTime() + backoffMs(taken.attempts))), message);
    ctx.logger.warn('store update failed; retried later', { accountId: task.account_id, orderId: task.order_id, task: task.kind, attempts: taken.attempts, error: message });
    return 'retry';
  }
}

/** Every task whose time has come (the job, every minute). */
export async function runDueShopTasks(ctx: AppContext, signal?: AbortSignal): Promise<{ processed: number; failed: number }> {
  const result = { processed: 0, failed: 0 };
  for (;;) {
    const due = await shopTasksRepository.due(ctx.db, toDbDateTime(ctx.clock.now()), BATCH);
    let progressed = false;
    for (const task of due) {
      if (signal?.aborted) return result;
      const outcome = await attemptShopTask(ctx, task);
      if (outcome === 'taken') continue;
      progressed = true;
      if (outcome === 'done') result.processed += 1;
      else result.failed += 1;
    }
    if (!progressed || due.length < BATCH) return result;
  }
}

/**
 * Queued inside a settlement's transaction: tried right after it commits (nothing if it rolls back),
 * and by the job after that until the store has it.
 */
export function attemptAfterCommit(ctx: AppContext, trx: Knex.Transaction, accountId: string, taskId: string): void {
  trx.executionPromise.then(
    () =>
      ctx.background.run('store write-back', async () => {
        const task = await shopTasksRepository.find(ctx.db, accountId, taskId);
        if (task && task.status === 'pending') await attemptShopTask(ctx, task);
      }),
    () => undefined,
  );
}
