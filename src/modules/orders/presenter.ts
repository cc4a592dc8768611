import type { Knex } from 'knex';
import type { Config } from '../../config';
import { formatCents } from '../../money';
import { formatDateTime, formatNullableDate } from '../../time';
import { presentProduct } from '../products/presenter';
import { productsRepository } from '../products/repository';
import { ordersRepository, type OrderLineRow, type OrderRow } from './repository';
import type { OrderLineResponse, OrderResponse } from './schemas';

type Zone = Pick<Config, 'APP_TIMEZONE'>;

function presentOrder(row: OrderRow, lines: OrderLineResponse[], zone: Zone): OrderResponse {
  return {
    id: row.id,
    status: row.status,
    total_amount: formatCents(row.total_amount),
    currency: row.currency,
    created_at: formatDateTime(row.created_at, zone.APP_TIMEZONE),
    order_number: row.order_number,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    organization_name: row.organization_name,
    phone: row.phone,
    address: row.address,
    postal_code: row.postal_code,
    city: row.city,
    country: row.country,
    vat_number: row.vat_number,
    carrier: row.carrier,
    tracktrace: row.tracktrace,
    shop_order_id: row.shop_order_id,
    shop_order_number: row.shop_order_number,
    subscription: row.subscription_id,
    subscription_status: row.subscription_status,
    cancel_subscription_at: formatNullableDate(row.cancel_subscription_at),
    products: lines,
  };
}

/** Lines with their products for a whole page of orders, in two queries. */
async function linesByOrder(db: Knex, accountId: string, orderIds: string[]): Promise<Map<string, OrderLineResponse[]>> {
  const lines: OrderLineRow[] = await ordersRepository.linesOf(db, accountId, orderIds);
  const products = await productsRepository.findMany(
    db,
    accountId,
    lines.map((line) => line.product_id),
  );
  const byOrder = new Map<string, OrderLineResponse[]>();
  for (const line of lines) {
    const product = products.get(line.product_id);
    if (!product) throw new Error(`Order line ${line.id} has no product ${line.product_id}`);
    const list = byOrder.get(line.order_id) ?? [];
    list.push({ quantity: line.quantity, product: presentProduct(product), next_order: formatNullableDate(line.next_order) });
    byOrder.set(line.order_id, list);
  }
  return byOrder;
}

/** Orders with their lines and products, for a whole page in two queries. */
export async function presentOrders(db: Knex, zone: Zone, accountId: string, rows: OrderRow[]): Promise<OrderResponse[]> {
  const lines = await linesByOrder(
    db,
    accountId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => presentOrder(row, lines.get(row.id) ?? [], zone));
}

/** Orders by id as they are nested in follow-ups, for a whole page in three queries. */
export async function nestedOrdersById(
  db: Knex,
  zone: Zone,
  accountId: string,
  ids: Array<string | null>,
): Promise<Map<string, OrderResponse>> {
  const rows = [
    ...(
      await ordersRepository.findMany(
        db,
        accountId,
        ids.filter((id): id is string => id !== null),
      )
    ).values(),
  ];
  const orders = await presentOrders(db, zone, accountId, rows);
  return new Map(orders.map((order) => [order.id, order]));
}
