import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/connect';
import { calendarDateIn, toDbDateTime } from '../../time';
import { daysAfter } from '../../time/calendar';
import { accountsRepository } from '../accounts/repository';
import { mandatesRepository } from '../mandates/repository';
import { ordersRepository, type OrderLineRow, type OrderRow } from '../orders/repository';
import type { PaymentRow } from '../payments/repository';
import { productsRepository, type ProductRow } from '../products/repository';
import { subscriptionsRepository, type SubscriptionRow } from '../subscriptions/repository';
import { newSubscription } from '../subscriptions/service';
import { insertPaidFirst, subscriptionPaidFirst } from '../subscriptions/paidFirstPeriod';
import { renewalAmount, ships } from './renewalAmounts';
import { renewalInvoicing } from './renewalInvoiceRules';

/** The profile a subscription is charged on when the account has none of its own set (as for links). */
const OWN_PROFILE = 'default';

interface SubscriptionGroup {
  key: string;
  product: ProductRow;
  lines: Array<OrderLineRow & { name: string }>;
  names: string[];
  /** The store's subscriptions extension's subscription the group is (its lines), or null. */
  shopSubscriptionId: number | null;
}

const shopSubscriptionOf = (line: OrderLineRow): number | null =>
  line.shop_subscription_id === null || line.shop_subscription_id === undefined ? null : Number(line.shop_subscription_id);

/**
 * An order's subscription lines, one group — one Subscription — per line. Not one per interval: lines
 * may differ in trial and length, and a buyer who bought two subscriptions expects to see, pause or
 * cancel each by itself (the store platform's guide in docs/ says why). The key is the line's position on the order.
 *
 * Lines the store's subscriptions extension put in one of its subscriptions (the plugin names it on each line)
 * are one group instead, keyed by that subscription: one Subscription here per subscription there,
 * billed on the terms of its first line (the extension groups only lines of one billing schedule).
 */
function groupsOf(lines: OrderLineRow[], products: Map<string, ProductRow>): SubscriptionGroup[] {
  const groups: SubscriptionGroup[] = [];
  const byShopSubscription = new Map<number, SubscriptionGroup>();
  for (const line of [...lines].sort((a, b) => a.position - b.position)) {
    const product = products.get(line.product_id);
    if (!product || product.type !== 'subscription' || !product.interval || !product.interval_value) continue;
    const name = line.quantity > 1 ? `${line.quantity} × ${product.name}` : product.name;
    const shopSubscriptionId = shopSubscriptionOf(line);
    const joined = shopSubscriptionId === null ? undefined : byShopSubscription.get(shopSubscriptionId);
    if (joined) {
      joined.lines.push({ ...line, name: product.name });
      joined.names.push(name);
      continue;
    }
    const group: SubscriptionGroup = {
      key: shopSubscriptionId === null ? `line${line.position}` : `wcs${shopSubscriptionId}`,
      product,
      lines: [{ ...line, name: product.name }],
      names: [name],
      shopSubscriptionId,
    };
    groups.push(group);
    if (shopSubscriptionId !== null) byShopSubscription.set(shopSubscriptionId, group);
  }
  return groups;
}

/** Whether an order holds products billed by interval: its payment must then leave a mandate (`first`). */
export async function holdsSubscriptionProducts(db: Knex, order: OrderRow): Promise<boolean> {
  const lines = await ordersRepository.linesOf(db, order.account_id, [order.id]);
  const products = await productsRepository.findMany(
    db,
    order.account_id,
    lines.map((line) => line.product_id),
  );
  return groupsOf(lines, products).length > 0;
}

/**
 * The Subscriptions a paid store order starts, one per subscription line, on the mandate its first
 * payment left. Runs in the payment's settlement transaction. Each is keyed by the order and its line
 * (unique per account), and an order that started any already (also under the earlier key per
 * interval) starts none again, so a second paid payment of the order makes none. Each charges what
 * the buyer bought (renewalAmounts.ts); when that cannot be derived, none is started and the order
 * says why.
 *
 * Without a trial the checkout paid the first period: it is the subscription's charge 1, counted in
 * the product's `times` (payments in all), and the next charge is one interval after it. With a trial
 * the checkout paid no period (only a sign-up fee and one-time lines): the charges start the day the
 * trial ends and all `times` of them are still to come.
 */
export async function subscribeStoreOrder(ctx: AppContext, trx: Knex.Transaction, order: OrderRow, payment: PaymentRow): Promise<string[]> {
  const lines = await ordersRepository.linesOf(trx, order.account_id, [order.id]);
  const products = await productsRepository.findMany(
    trx,
    order.account_id,
    lines.map((line) => line.product_id),
  );
  const groups = groupsOf(lines, products);
  if (!groups.length) return [];
  if ((await subscriptionsRepository.startedByOrder(trx, order.account_id, order.id, 1)).length) return [];
  // The group of the order's first subscription line that ships carries the order's shipping (carriesShipping).
  const shipping = groups.findIndex((group) => group.lines.some((line) => ships(products.get(line.product_id))));
  const amounts = groups.map((group, index) => renewalAmount(order, group.lines, index === shipping));
  const refused = amounts.find((derived) => 'refusal' in derived);
  if (refused && 'refusal' in refused) {
    // Never guessed: the merchant is told on the order (with the paid write-back) and starts it by hand.
    await ordersRepository.update(trx, order.account_id, order.id, {
      subscription_refusal: refused.refusal.slice(0, 500),
      updated_at: toDbDateTime(ctx.clock.now()),
    });
    ctx.logger.warn('a paid store order started no subscription: its amount could not be derived', {
      accountId: order.account_id,
      orderId: order.id,
    });
    return [];
  }
  const mandate =
    payment.customer_id && payment.provider_mandate_id
      ? await mandatesRepository.findForCustomer(trx, order.account_id, payment.customer_id, payment.provider_mandate_id)
      : undefined;
  if (!mandate) {
    ctx.logger.error('a store order with subscription products was paid without a mandate; no subscription was made', {
      accountId: order.account_id,
      orderId: order.id,
      paymentId: payment.id,
    });
    return [];
  }
  const settings = await accountsRepository.providerSettings(trx, order.account_id);
  const paidDate = calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
  const made: string[] = [];
  for (const [index, group] of groups.entries()) {
    const derived = amounts[index];
    if (!derived || !('amount' in derived)) continue;
    const { amount } = derived;
    // Invoiced at the VAT the store charged, never split at the account's rate; not invoiced when it cannot be told.
    const invoicing = renewalInvoicing(order, group.lines, index === shipping);
    const originKey = `order-${order.id}-${group.key}`;
    if (await subscriptionsRepository.findByOriginKey(trx, order.account_id, originKey)) continue;
    const interval = group.product.interval as NonNullable<ProductRow['interval']>;
    const input = {
      name: `Order ${order.shop_order_number ?? order.order_number}: ${group.names.join(', ')}`.slice(0, 191),
      customer_id: mandate.customer_id,
      provider_profile_id: settings?.provider_profile_id ?? OWN_PROFILE,
      provider_mandate_id: mandate.id,
      rules: [
        {
          amount,
          interval,
          interval_amount: Number(group.product.interval_value),
          times: group.product.times === null ? null : Number(group.product.times),
          invoice_rules: 'rules' in invoicing ? invoicing.rules : [],
        },
      ],
      workflow_id: null,
      docstyle_id: null,
    };
    const origin = {
      origin_key: originKey,
      origin_order_id: order.id,
      shop_subscription_id: group.shopSubscriptionId,
      invoice_refusal: 'refusal' in invoicing ? invoicing.refusal.slice(0, 255) : null,
    };
    const trialDays = Number(group.product.trial_days ?? 0);
    let row: SubscriptionRow;
    try {
      if (trialDays > 0) {
        const trial = newSubscription(
          { id: order.account_id },
          { ...input, start_date: daysAfter(paidDate, trialDays) },
          mandate,
          ctx.clock.now(),
        );
        row = { ...trial.row, ...origin };
        await subscriptionsRepository.insertWithRules(trx, row, trial.rules, trial.invoiceRules);
      } else {
        const started = subscriptionPaidFirst({ id: order.account_id }, input, mandate, { payment, amount, paidDate }, ctx.clock.now());
        row = started.row;
        await insertPaidFirst(ctx, trx, started, payment, origin);
      }
    } catch (error) {
      if (isUniqueViolation(error)) continue; // made a moment ago by the order's other payment
      throw error;
    }
    await ordersRepository.attachLinesToSubscription(
      trx,
      order.account_id,
      order.id,
      group.lines.map((line) => line.id),
      { id: row.id, nextOrder: row.next_payment_at },
    );
    made.push(row.id);
    if (!order.subscription_id && made.length === 1) {
      await ordersRepository.update(trx, order.account_id, order.id, {
        subscription_id: row.id,
        subscription_status: row.status,
        updated_at: toDbDateTime(ctx.clock.now()),
      });
    }
  }
  return made;
}
