import type { Knex } from 'knex';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { formatCents } from '../../money';
import { ShopApiError } from '../../shop/woocommerce/errors';
import type { WooClient } from '../../shop/woocommerce/client';
import { SERVICE_ORDER_ID_META } from '../../shop/woocommerce/orderMapping';
import { wooOrder, type WooOrder } from '../../shop/woocommerce/schemas';
import { fromDbDateTime, toDbDateTime } from '../../time';
import { nextAttemptAfterFailure } from '../../webhooks/backoff';
import { ordersRepository, type OrderRow } from '../orders/repository';
import { providerPaymentLabel } from '../payments/providerLabel';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import { productsRepository } from '../products/repository';
import { connectedStore, storeClient } from './storeClient';
import type { ShopRow } from './repository';
import { shopTasksRepository, type ShopTaskRow } from './tasksRepository';

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

/** A task that cannot succeed however often it is tried. */
class HopelessTask extends Error {}

const anyBody = z.unknown();
const orderList = z.array(wooOrder);

const paidNote = (payment: PaymentRow, label: string) =>
  `Paid: ${label} (${payment.currency} ${formatCents(Number(payment.amount))}), recurring payments service payment ${payment.id}.`;

async function writePaid(client: WooClient, order: OrderRow, payment: PaymentRow, label: string): Promise<void> {
  const shopOrderId = requireShopOrderId(order);
  const { body: current } = await client.get(`orders/${shopOrderId}`, wooOrder);
  const record = { transaction_id: payment.provider_payment_id ?? '', meta_data: [{ key: META_PAYMENT_ID, value: payment.id }] };
  // Never moves an order back: one the merchant completed (or the plugin marked paid) keeps its status.
  await client.put(`orders/${shopOrderId}`, PAYABLE.has(current.status) ? { ...record, set_paid: true, status: 'processing' } : record, wooOrder);
  const late = PAYABLE.has(current.status) || current.status === 'processing' || current.status === 'completed' ? '' : ` The order was ${current.status} in the store: refund the payment or reopen the order.`;
  await client.post(`orders/${shopOrderId}/notes`, { note: paidNote(payment, label) + late }, anyBody);
}

async function writeUnpaid(client: WooClient, order: OrderRow, payment: PaymentRow, label: string): Promise<void> {
  const note = `${label} ${payment.status}${payment.failure_reason ? ` (${payment.failure_reason})` : ''}: the order is not paid and can still be paid.`;
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
async function writeRenewal(ctx: AppContext, db: Knex, shop: ShopRow, task: ShopTaskRow, order: OrderRow, payment: PaymentRow, label: string): Promise<void> {
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
  const note = paid ? paidNote(payment, label) : `Renewal not paid: ${label} ${payment.status}${payment.failure_reason ? ` (${payment.failure_reason})` : ''}.`;
  await client.post(`orders/${shopOrderId}/notes`, { note: `Renewal of order #${parent.shop_order_number ?? parentShopId}. ${note}` }, anyBody);
}

async function perform(ctx: AppContext, task: ShopTaskRow): Promise<void> {
  const shop = await connectedStore(ctx, task.account_id);
  if (!shop) throw new Error('no store is connected to this account');
  const order = await ordersRepository.find(ctx.db, task.account_id, task.order_id);
  const payment = task.payment_id ? await paymentsRepository.find(ctx.db, task.account_id, task.payment_id) : undefined;
  if (!order || !payment) throw new HopelessTask(`task ${task.id} has no order or payment`);
  const label = await providerPaymentLabel(ctx, payment);
  if (task.kind === 'renewal') return writeRenewal(ctx, ctx.db, shop, task, order, payment, label);
  const client = storeClient(ctx, shop, { retries: TASK_CLIENT_RETRIES });
  if (task.kind === 'paid') await writePaid(client, order, payment, label);
  else await writeUnpaid(client, order, payment, label);
}

/**
 * Why a task failed, for the log: a store's own words (a refusal's message) can quote the buyer, so
 * of a store's answer only its kind and status are logged; the whole message is kept on the task.
 */
function loggedReason(error: unknown): string {
  if (error instanceof ShopApiError) return error.status === null ? error.kind : `${error.kind} (HTTP ${error.status})`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * A failed attempt, whatever threw (the store, or our side before calling it: a store secret that
 * cannot be decrypted). Retried with the backoff of the other outboxes until 26 hours after the task
 * was queued, then `dead`; at once when it cannot succeed (no such order here, or in the store).
 */
async function recordFailure(ctx: AppContext, task: ShopTaskRow, attempts: number, error: unknown): Promise<'retry' | 'dead'> {
  const reason = error instanceof Error ? error.message : String(error);
  const hopeless = error instanceof HopelessTask || (error instanceof ShopApiError && error.status === 404);
  const next = hopeless ? null : nextAttemptAfterFailure(fromDbDateTime(task.created_at), ctx.clock.now(), attempts);
  const log = { accountId: task.account_id, orderId: task.order_id, taskId: task.id, task: task.kind, attempts, reason: loggedReason(error) };
  if (next === null) {
    await shopTasksRepository.dead(ctx.db, task, reason);
    ctx.logger.error('store update given up: the task is dead', log);
    return 'dead';
  }
  await shopTasksRepository.retryLater(ctx.db, task, toDbDateTime(next), reason);
  ctx.logger.warn('store update failed; retried later', { ...log, nextAttemptAt: toDbDateTime(next) });
  return 'retry';
}

/** One attempt of one task, if nobody else took it; the outcome is recorded on the task. */
export async function attemptShopTask(ctx: AppContext, task: ShopTaskRow): Promise<'done' | 'retry' | 'dead' | 'taken'> {
  const now = ctx.clock.now();
  if (!(await shopTasksRepository.take(ctx.db, task, toDbDateTime(new Date(now.getTime() + HOLD_MS))))) return 'taken';
  try {
    await perform(ctx, task);
    await shopTasksRepository.done(ctx.db, task, toDbDateTime(ctx.clock.now()));
  } catch (error) {
    return recordFailure(ctx, task, task.attempts + 1, error);
  }
  ctx.logger.info('store updated', { accountId: task.account_id, orderId: task.order_id, task: task.kind });
  return 'done';
}

/**
 * Every task whose time has come (the job, every minute). A task whose attempt throws even so (its
 * row cannot be taken or written) is counted failed, left for a later run, and the others go on.
 */
export async function runDueShopTasks(ctx: AppContext, signal?: AbortSignal): Promise<{ processed: number; failed: number }> {
  const result = { processed: 0, failed: 0 };
  const thrown = new Set<string>();
  for (;;) {
    const due = await shopTasksRepository.due(ctx.db, toDbDateTime(ctx.clock.now()), BATCH);
    let progressed = false;
    for (const task of due.filter(({ id }) => !thrown.has(id))) {
      if (signal?.aborted) return result;
      let outcome: Awaited<ReturnType<typeof attemptShopTask>>;
      try {
        outcome = await attemptShopTask(ctx, task);
      } catch (error) {
        thrown.add(task.id);
        ctx.logger.error('store update attempt failed; tried again on a later run', { accountId: task.account_id, taskId: task.id, task: task.kind, reason: loggedReason(error) });
        outcome = 'retry';
      }
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
