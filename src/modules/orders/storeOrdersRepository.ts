import type { Knex } from 'knex';
import { againAfterInsertRace, olderThanStored, type RecordError, type UpsertCounts } from '../../db/upserts';
import { newId } from '../../ids';
import type { StoreOrder } from '../../integrations/records';
import { productsRepository } from '../products/repository';
import type { OrderLineRow, OrderRow } from './repository';

/** A payment recorded here is the truth about money: a store still waiting for our write-back does not undo it. */
const MONEY_IN: ReadonlySet<string> = new Set(['paid', 'charged_back']);
const NOT_YET_PAID: ReadonlySet<string> = new Set(['unpaid', 'pending']);

/** A store order that is an order: not a checkout the buyer has not placed yet. */
type PlacedOrder = StoreOrder & { status: Exclude<StoreOrder['status'], 'draft'> };
const isPlaced = (order: StoreOrder): order is PlacedOrder => order.status !== 'draft';

function fieldsOf(order: PlacedOrder, existing: OrderRow | undefined): Partial<OrderRow> {
  const keepOurs = existing !== undefined && MONEY_IN.has(existing.status) && NOT_YET_PAID.has(order.status);
  return {
    status: keepOurs ? existing.status : order.status,
    total_amount: order.totalAmount,
    currency: order.currency,
    order_number: order.shopOrderNumber,
    shop_order_number: order.shopOrderNumber,
    first_name: order.firstName,
    last_name: order.lastName,
    email: order.email,
    organization_name: order.organizationName,
    phone: order.phone,
    address: order.address,
    postal_code: order.postalCode,
    city: order.city,
    country: order.country,
    payment_method: order.paymentMethod,
    payment_method_title: order.paymentMethodTitle,
    shipping_lines: order.shippingLines.length ? JSON.stringify(order.shippingLines) : null,
    invoice_lines: order.invoiceLines.length ? JSON.stringify(order.invoiceLines) : null,
    // The order was made when the store made it (a record that does not say keeps what is known).
    ...(order.createdAt ? { created_at: order.createdAt } : {}),
    // A record that does not say when it changed keeps the time known from an earlier one.
    shop_modified_at: order.modifiedAt ?? existing?.shop_modified_at ?? null,
  };
}

const sameFields = (existing: OrderRow, fields: Partial<OrderRow>) =>
  (Object.keys(fields) as Array<keyof OrderRow>).every(
    (key) => (existing[key] ?? null) === (fields[key] ?? null) || String(existing[key]) === String(fields[key]),
  );

type LineFields = Pick<OrderLineRow, 'product_id' | 'quantity' | 'amount' | 'shop_subtotal' | 'shop_subscription_id' | 'vat_rate'>;

const lineKey = (lines: LineFields[]) => lines.map((line) => `${line.product_id}x${Number(line.quantity)}`).join(',');
const priceKey = (lines: LineFields[]) =>
  lines
    .map((line) => `${line.amount ?? '-'}/${line.shop_subtotal ?? '-'}/${line.shop_subscription_id ?? '-'}/${line.vat_rate ?? '-'}`)
    .join(',');

/**
 * Writes a page of store orders as Orders, by their unique store id, with their lines on the
 * account's Products (by store product id). A line whose product is not synced yet is left out and
 * reported; the next sync after the product's adds it. A repeated sync changes nothing. A record
 * older than the one the Order was last written from (a late webhook delivery) is left out: it would
 * roll the Order back. A draft (a checkout not placed yet) is no order: it is not written (counted
 * unchanged), and an Order it would be is left as it is; once placed, the store's order is written as every other order is.
 */
export function upsertStoreOrders(
  db: Knex,
  accountId: string,
  orders: StoreOrder[],
  now: string,
): Promise<UpsertCounts & { errors: RecordError[] }> {
  return againAfterInsertRace(() => writeStoreOrders(db, accountId, orders, now));
}

async function writeStoreOrders(
  db: Knex,
  accountId: string,
  records: StoreOrder[],
  now: string,
): Promise<UpsertCounts & { errors: RecordError[] }> {
  const orders = records.filter(isPlaced);
  const counts = { created: 0, updated: 0, unchanged: records.length - orders.length, errors: [] as RecordError[] };
  if (!orders.length) return counts;
  await db.transaction(async (trx) => {
    const existing = new Map(
      (
        await trx<OrderRow>('orders')
          .where('account_id', accountId)
          .whereIn(
            'shop_order_id',
            orders.map((order) => order.shopOrderId),
          )
      ).map((row) => [Number(row.shop_order_id), row]),
    );
    // Orders the service made in the store (renewals) whose store id it has not recorded yet: the
    // store answered, but the answer was lost. They are ours: linked, not made twice.
    const unlinked = orders
      .filter((order) => !existing.has(order.shopOrderId) && order.serviceOrderId)
      .map((order) => order.serviceOrderId as string);
    if (unlinked.length) {
      const made = new Map(
        (await trx<OrderRow>('orders').where('account_id', accountId).whereNull('shop_order_id').whereIn('id', unlinked)).map((row) => [
          row.id,
          row,
        ]),
      );
      for (const order of orders) {
        const row = order.serviceOrderId ? made.get(order.serviceOrderId) : undefined;
        if (row) existing.set(order.shopOrderId, { ...row, shop_order_id: null });
      }
    }
    const productIds = [...new Set(orders.flatMap((order) => order.lines.map((line) => line.shopProductId)))];
    const products = await productsRepository.idsOfShopProducts(trx, accountId, productIds);
    const existingLines = await trx<OrderLineRow>('order_lines')
      .where('account_id', accountId)
      .whereIn(
        'order_id',
        [...existing.values()].map((row) => row.id),
      )
      .orderBy([{ column: 'order_id' }, { column: 'position' }]);
    for (const order of orders) {
      if (olderThanStored(existing.get(order.shopOrderId)?.shop_modified_at, order.modifiedAt)) {
        counts.unchanged += 1;
        continue;
      }
      const lines = order.lines.flatMap((line): LineFields[] => {
        const productId = products.get(line.shopProductId);
        if (!productId) {
          counts.errors.push({
            record: `order ${order.shopOrderId}`,
            error: `product ${line.shopProductId} is not synced yet: its line is left out until it is`,
          });
          return [];
        }
        return [
          {
            product_id: productId,
            quantity: line.quantity,
            amount: line.amount,
            shop_subtotal: line.subtotal,
            shop_subscription_id: line.shopSubscriptionId ?? null,
            vat_rate: line.vatRate ?? null,
          },
        ];
      });
      const found = existing.get(order.shopOrderId);
      const fields = { ...fieldsOf(order, found), shop_order_id: order.shopOrderId };
      if (!found) {
        const id = newId('ord');
        await trx('orders').insert({
          id,
          account_id: accountId,
          vat_number: null,
          carrier: null,
          tracktrace: null,
          subscription_id: null,
          subscription_status: null,
          cancel_subscription_at: null,
          created_at: now,
          updated_at: now,
          ...fields,
        });
        if (lines.length)
          await trx('order_lines').insert(
            lines.map((line, position) => ({ id: newId('orl'), account_id: accountId, order_id: id, position, next_order: null, ...line })),
          );
        counts.created += 1;
        continue;
      }
      const linesBefore = existingLines.filter((line) => line.order_id === found.id);
      const linesSame = lineKey(linesBefore) === lineKey(lines);
      const pricesSame = priceKey(linesBefore) === priceKey(lines);
      if (sameFields(found, fields) && linesSame && pricesSame) {
        counts.unchanged += 1;
        continue;
      }
      await trx('orders')
        .where({ id: found.id, account_id: accountId })
        .update({ ...fields, updated_at: now });
      if (linesSame && !pricesSame) {
        // The same lines with their prices (or the extension's subscriptions holding them) now known or
        // changed: kept, with the subscriptions they became.
        for (const [index, line] of linesBefore.entries()) {
          const current = lines[index];
          if (current)
            await trx('order_lines').where({ account_id: accountId, id: line.id }).update({
              amount: current.amount,
              shop_subtotal: current.shop_subtotal,
              shop_subscription_id: current.shop_subscription_id,
              vat_rate: current.vat_rate,
            });
        }
      }
      if (!linesSame) {
        await trx('order_lines').where({ account_id: accountId, order_id: found.id }).delete();
        if (lines.length)
          await trx('order_lines').insert(
            lines.map((line, position) => ({
              id: newId('orl'),
              account_id: accountId,
              order_id: found.id,
              position,
              next_order: null,
              ...line,
            })),
          );
      }
      counts.updated += 1;
    }
  });
  return counts;
}
