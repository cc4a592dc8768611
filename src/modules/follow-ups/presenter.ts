import type { Knex } from 'knex';
import type { Config } from '../../config';
import { formatCents } from '../../money';
import { formatDateTime, formatNullableDate } from '../../time';
import { presentCustomer } from '../customers/presenter';
import { customersRepository } from '../customers/repository';
import { nestedOrdersById } from '../orders/presenter';
import { nestedSubscriptionsById } from '../subscriptions/presenter';
import type { FollowUpRow } from './repository';
import type { FollowUpResponse } from './schemas';

type Zone = Pick<Config, 'APP_TIMEZONE'>;

/** Looks up an optional relation; absent (or of another account) reads as null. */
const related = <T>(found: Map<string, T>, id: string | null): T | null => (id === null ? null : (found.get(id) ?? null));

/** Follow-ups with customer, subscription and order, for a whole page in six queries. */
export async function presentFollowUps(db: Knex, zone: Zone, accountId: string, rows: FollowUpRow[]): Promise<FollowUpResponse[]> {
  const customers = await customersRepository.findMany(
    db,
    accountId,
    rows.flatMap((row) => (row.customer_id === null ? [] : [row.customer_id])),
  );
  const subscriptions = await nestedSubscriptionsById(
    db,
    zone,
    accountId,
    rows.map((row) => row.subscription_id),
  );
  const orders = await nestedOrdersById(
    db,
    zone,
    accountId,
    rows.map((row) => row.order_id),
  );
  return rows.map((row) => {
    const customer = related(customers, row.customer_id);
    return {
      id: row.id,
      description: row.description,
      type: row.type,
      status: row.status,
      amount: formatCents(row.amount),
      currency: row.currency,
      created_at: formatDateTime(row.created_at, zone.APP_TIMEZONE),
      provider_profile_id: row.provider_profile_id,
      provider_payment_id: row.provider_payment_id,
      reason: row.reason,
      reason_code: row.reason_code,
      retries_done: row.retries_done,
      mails_sent: row.mails_sent,
      next_retry_at: formatNullableDate(row.next_retry_at),
      customer: customer ? presentCustomer(customer, zone) : null,
      subscription: related(subscriptions, row.subscription_id),
      order: related(orders, row.order_id),
    };
  });
}
