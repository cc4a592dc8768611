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

  /** A link by its id alone: the public pages know no account (ids are long random strings). */
  findPublic: (db: Knex, id: string) => shared.table(db).where({ id }).first(),

  update: (db: Knex, link: { id: string; account_id: string }, changes: Partial<PaymentLinkRow>) =>
    shared.table(db).where({ id: link.id, account_id: link.account_id }).update(changes),

  /** Cancels the link only while it is open: a payment settling at this moment keeps its `paid`. */
  cancelIfOpen: (db: Knex, link: { id: string; account_id: string }, now: string) =>
    shared
      .table(db)
      .where({ id: link.id, account_id: link.account_id })
      .where('status', 'open')
      .update({ status: 'cancelled', updated_at: now }),

  /** Open links whose last day is before `today` become expired and inactive, in one statement; answers how many. */
  expireEndedBefore: (db: Knex, today: string, now: string) =>
    shared
      .table(db)
      .where('status', 'open')
      .whereNotNull('expires_at')
      .andWhere('expires_at', '<', today)
      .update({ status: 'expired', active: false, updated_at: now }),

  /** Open, active links of a known customer whose reminder is due and not sent, across accounts, longest due first. */
  dueForReminder: (db: Knex, now: string, limit: number) =>
    shared
      .table(db)
      .where({ status: 'open', active: true })
      .whereNull('reminder_sent_at')
      .whereNotNull('customer_id')
      .andWhere('reminder_at', '<=', now)
      .orderBy('reminder_at')
      .limit(limit),

  /** Marks the link's reminder sent while it is open and unsent: 1 for whoever claims it first, 0 after. */
  claimReminder: (db: Knex, linkId: string, now: string) =>
    shared.table(db).where({ id: linkId, status: 'open' }).whereNull('reminder_sent_at').update({ reminder_sent_at: now, updated_at: now }),
};

export const linkFulfilmentsRepository = {
  /** Fails on the primary key when the link was fulfilled already. */
  insert: (db: Knex, row: LinkFulfilmentRow) => db<LinkFulfilmentRow>('link_fulfilments').insert(row),

  recordSubscription: (db: Knex, linkId: string, subscriptionId: string) =>
    db<LinkFulfilmentRow>('link_fulfilments').where({ link_id: linkId }).update({ subscription_id: subscriptionId }),
};

/** One per fulfilled link: its primary key is what makes a link fulfil (create its subscription) once. */
export interface LinkFulfilmentRow {
  link_id: string;
  account_id: string;
  payment_id: string;
  subscription_id: string | null;
  created_at: string;
}
