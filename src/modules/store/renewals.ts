import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { newId } from '../../ids';
import { toDbDateTime } from '../../time';
import { chargesRepository } from '../subscriptions/chargesRepository';
import { ordersRepository, type OrderLineRow, type OrderRow } from '../orders/repository';
import type { PaymentRow } from '../payments/repository';
import { productsRepository } from '../products/repository';
import { subscriptionsRepository } from '../subscriptions/repository';
import { carriesShipping } from './renewalAmounts';

/**
 * The renewal order of a subscription charge that settled, when the subscription came from a store
 * order: an Order here (its lines the parent's lines of that subscription, `next_order` the
 * subscription's next charge) keyed by the charge, so it is made once whatever settles how often.
 * Returns it, or undefined for a subscription made by the API or a link.
 */
export async function renewalOrderOf(
  ctx: AppContext,
  trx: Knex.Transaction,
  payment: PaymentRow,
  paid: boolean,
): Promise<OrderRow | undefined> {
  if (!payment.subscription_id || !payment.purpose_id) return undefined;
  const subscription = await subscriptionsRepository.find(trx, payment.account_id, payment.subscription_id);
  if (!subscription?.origin_order_id) return undefined;
  const parent = await ordersRepository.find(trx, payment.account_id, subscription.origin_order_id);
  const charge = await chargesRepository.find(trx, payment.account_id, payment.purpose_id);
  if (!parent || !charge) return undefined;
  const now = toDbDateTime(ctx.clock.now());
  const status = paid ? 'paid' : 'unpaid';
  const originKey = `renewal-${charge.id}`;
  const existing = await ordersRepository.findByOriginKey(trx, payment.account_id, originKey);
  if (existing) {
    if (existing.status !== status) await ordersRepository.update(trx, payment.account_id, existing.id, { status, updated_at: now });
    return { ...existing, status };
  }
  // The buyer's fields come from the first order; its row's own key and list number do not.
  const { seq: _seq, account_seq: _position, ...buyer } = parent as OrderRow & { seq?: unknown; account_seq?: unknown };
  const order: OrderRow = {
    ...buyer,
    id: newId('ord'),
    status,
    total_amount: Number(payment.amount),
    currency: payment.currency,
    order_number: `${parent.shop_order_number ?? parent.order_number}-${charge.charge_number}`.slice(0, 64),
    carrier: null,
    tracktrace: null,
    shop_order_id: null,
    shop_order_number: null,
    subscription_id: subscription.id,
    subscription_status: subscription.status,
    cancel_subscription_at: subscription.cancel_at,
    origin_key: originKey,
    parent_order_id: parent.id,
    created_at: now,
    updated_at: now,
  };
  const allParentLines = await ordersRepository.linesOf(trx, payment.account_id, [parent.id]);
  const parentLines = allParentLines.filter((line) => line.subscription_id === subscription.id);
  // The gateway, and the shipping when this subscription carries it, recur as the charge did.
  const products = await productsRepository.findMany(
    trx,
    payment.account_id,
    allParentLines.map((line) => line.product_id),
  );
  order.shipping_lines = carriesShipping(allParentLines, products, subscription.id) ? parent.shipping_lines : null;
  order.subscription_refusal = null;
  await ordersRepository.insert(trx, order);
  await ordersRepository.insertLines(
    trx,
    parentLines.map((line, position): OrderLineRow => ({
      id: newId('orl'),
      account_id: payment.account_id,
      order_id: order.id,
      product_id: line.product_id,
      position,
      quantity: line.quantity,
      next_order: subscription.next_payment_at,
      subscription_id: subscription.id,
      amount: line.amount ?? null,
      shop_subtotal: line.shop_subtotal ?? null,
    })),
  );
  return order;
}
