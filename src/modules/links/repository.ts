import type { Knex } from 'knex';
import { tenantTable } from '../../db/tenantTable';
import type { IntervalUnit } from '../../time/calendar';

export const LINK_TYPES = ['payment', 'subscription', 'mandate'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

export const LINK_STATUSES = ['open', 'paid', 'expired', 'cancelled'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export interface PaymentLinkRow {
  id: string;
  account_id: string;
  customer_id: string | null;
  subscription_id: string | null;
  type: LinkType;
  status: LinkStatus;
  active: boolean | number; // both databases answer 0/1
  description: string;
  currency: string;
  amount: number; // cents
  first_amount: number | null; // cents
  interval: IntervalUnit | null;
  times: number | null;
  trial_interval: string | null; // `<number> <unit>`, e.g. `14 days`
  reminder_at: string | null; // UTC date-time
  redirect_url_paid: string | null;
  redirect_url_failed: string | null;
  expires_at: string | null; // Y-m-d
  /** JSON of the subscription's rules (request form, amounts in cents), for type subscription; see rules.ts. */
  rules: string | null;
  /** The subscription product the rules came from, when the link was made from one. */
  product_id: string | null;
  reminder_sent_at: string | null; // UTC date-time
  paid_at: string | null; // UTC date-time
  created_at: string;
  updated_at: string;
}

const shared = tenantTable<PaymentLinkRow>('payment_links');

export const paymentLinksRepository = {
  ...shared,

  insert: (db: Knex, row: PaymentLinkRow) => shared.table(db).insert(row),
};

/** One per fulfilled link: its primary key is what makes a link fulfil (create its subscription) once. */
export interface LinkFulfilmentRow {
  link_id: string;
  account_id: string;
  payment_id: string;
  subscription_id: string | null;
  created_at: string;
}
