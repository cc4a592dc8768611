import type { Knex } from 'knex';
import type { Config } from '../../config';
import { formatCents, formatNullableCents } from '../../money';
import { formatDateTime, formatNullableDate, formatNullableDateTime } from '../../time';
import { presentCustomer } from '../customers/presenter';
import { customersRepository } from '../customers/repository';
import { nestedSubscriptionsById } from '../subscriptions/presenter';
import type { PaymentLinkRow } from './repository';
import type { PaymentLinkResponse } from './schemas';

type Settings = Pick<Config, 'APP_TIMEZONE' | 'publicUrl'>;

/** Payment links with their customer and subscription, for a whole page in three queries. */
export async function presentPaymentLinks(
  db: Knex,
  config: Settings,
  accountId: string,
  rows: PaymentLinkRow[],
): Promise<PaymentLinkResponse[]> {
  const customers = await customersRepository.findMany(
    db,
    accountId,
    rows.flatMap((row) => (row.customer_id === null ? [] : [row.customer_id])),
  );
  const subscriptions = await nestedSubscriptionsById(
    db,
    config,
    accountId,
    rows.map((row) => row.subscription_id),
  );
  return rows.map((row) => {
    const customer = row.customer_id === null ? undefined : customers.get(row.customer_id);
    return {
      id: row.id,
      status: row.status,
      active: Boolean(Number(row.active)),
      type: row.type,
      description: row.description,
      currency: row.currency,
      created_at: formatDateTime(row.created_at, config.APP_TIMEZONE),
      url: `${config.publicUrl}/pay/${row.id}`,
      amount: formatCents(row.amount),
      first_amount: formatNullableCents(row.first_amount),
      interval: row.interval,
      times: row.times,
      trial_interval: row.trial_interval,
      reminder_at: formatNullableDateTime(row.reminder_at, config.APP_TIMEZONE),
      redirect_url_paid: row.redirect_url_paid,
      redirect_url_failed: row.redirect_url_failed,
      expires_at: formatNullableDate(row.expires_at),
      customer: customer ? presentCustomer(customer, config) : null,
      subscription: (row.subscription_id === null ? undefined : subscriptions.get(row.subscription_id)) ?? null,
    };
  });
}
