import type { AppContext } from '../../context';
import { ConflictError, NotFoundError } from '../../errors';
import type { Cents } from '../../money';
import { calendarDateIn, formatNullableDate, fromDbDateTime, todayIn } from '../../time';
import type { IntervalUnit } from '../../time/calendar';
import { portalSettingsOf, type PortalAction, type PortalSettings } from '../accounts/portalSettings';
import { merchantProfileOf, type MerchantProfile } from '../accounts/profile';
import { creditNotePdfOf } from '../invoices/pdf';
import { mandateLabel } from '../mandates/display';
import type { PaymentRowStatus } from '../payments/transitions';
import type { RefundRowStatus } from '../refunds/repository';
import { LIVE } from '../subscriptions/lifecycle';
import {
  subscriptionsRepository,
  type SubscriptionRow,
  type SubscriptionRuleRow,
  type SubscriptionStatus,
} from '../subscriptions/repository';
import { portalSubscription, requireAllowed, type PortalCustomer } from './actions';
import { portalOverviewRepository } from './overviewRepository';

/** How many payments and invoices the overview lists: the latest ones. */
export const HISTORY_LENGTH = 24;

/** What every portal page shows of the merchant, and what the account lets the customer do. */
export interface PortalFrame {
  merchant: MerchantProfile;
  settings: PortalSettings;
  today: string;
}

export async function portalFrameOf(ctx: AppContext, who: PortalCustomer): Promise<PortalFrame> {
  const [merchant, settings] = await Promise.all([merchantProfileOf(ctx.db, who.account.id), portalSettingsOf(ctx.db, who.account.id)]);
  return { merchant, settings, today: todayIn(ctx) };
}

/** The portal actions a subscription offers now: allowed by the account and possible in its state. */
export type OfferedAction = 'pause' | 'resume' | 'skip' | 'cancel' | 'change-method';

export interface PortalSubscriptionView {
  id: string;
  name: string;
  status: SubscriptionStatus;
  currency: string;
  /** The amount and interval of the rule running now (the last one when all have run). */
  amount: Cents | null;
  every: { count: number; unit: IntervalUnit } | null;
  nextChargeDate: string | null;
  nextAmount: Cents | null;
  /** Charges still to come by the rules' `times`; null: until cancelled. */
  remainingTimes: number | null;
  cancelAt: string | null;
  resumeAt: string | null;
  /** The mandate charged, as its customer may see it (masked); null when it is not found. */
  mandate: string | null;
  offered: OfferedAction[];
}

export interface PortalPaymentView {
  date: string;
  description: string;
  amount: Cents;
  currency: string;
  status: PaymentRowStatus;
  /** What went back of it, in the order it was made. */
  refunds: PortalRefundView[];
}

export interface PortalRefundView {
  date: string;
  amount: Cents;
  currency: string;
  status: RefundRowStatus;
}

export interface PortalCreditNoteView {
  id: string;
  number: string;
  /** The invoice it credits: its PDF is found under it. */
  invoiceId: string;
  invoiceNumber: string | null;
  date: string;
  /** Negative: what is credited. */
  amount: Cents;
  currency: string;
}

export interface PortalInvoiceView {
  number: string;
  /** The invoice whose PDF the customer can download (an issued, numbered one); null: none. */
  pdfId: string | null;
  date: string;
  amount: Cents;
  currency: string;
}

export interface PortalOverview {
  subscriptions: PortalSubscriptionView[];
  payments: PortalPaymentView[];
  invoices: PortalInvoiceView[];
  creditNotes: PortalCreditNoteView[];
}

/** The rule charging now: the first with charges left, else the last. */
function runningRule(rules: SubscriptionRuleRow[]): SubscriptionRuleRow | undefined {
  return rules.find((rule) => rule.times === null || rule.times_done < rule.times) ?? rules[rules.length - 1];
}

function remainingTimesOf(rules: SubscriptionRuleRow[]): number | null {
  if (rules.some((rule) => rule.times === null)) return null;
  return rules.reduce((left, rule) => left + Math.max(0, (rule.times ?? 0) - rule.times_done), 0);
}

function offeredActions(row: SubscriptionRow, allowed: ReadonlySet<PortalAction>): OfferedAction[] {
  const live = LIVE.has(row.status);
  const ending = row.cancel_at !== null;
  const offered: Array<[OfferedAction, boolean]> = [
    ['pause', allowed.has('pause') && row.status === 'active' && !ending],
    ['resume', allowed.has('pause') && row.status === 'paused'],
    ['skip', allowed.has('skip') && row.status === 'active' && row.next_payment_at !== null],
    ['change-method', allowed.has('change-method') && live],
    ['cancel', allowed.has('cancel') && live && !ending],
  ];
  return offered.filter(([, yes]) => yes).map(([action]) => action);
}

/** One subscription as the portal shows it, with what the customer may do with it now. */
export async function subscriptionViews(
  ctx: AppContext,
  who: PortalCustomer,
  rows: SubscriptionRow[],
  settings: PortalSettings,
): Promise<PortalSubscriptionView[]> {
  const rules = await subscriptionsRepository.rulesOf(
    ctx.db,
    who.account.id,
    rows.map((row) => row.id),
  );
  const mandates = new Map(
    (await portalOverviewRepository.mandatesOf(ctx.db, who.account.id, who.customerId)).map((mandate) => [mandate.id, mandate]),
  );
  return rows.map((row) => {
    const own = rules.filter((rule) => rule.subscription_id === row.id);
    const running = runningRule(own);
    const mandate = mandates.get(row.provider_mandate_id);
    return {
      id: row.id,
      name: row.name,
      status: row.status,
      currency: row.currency,
      amount: running ? Number(running.amount) : null,
      every: running ? { count: running.interval_amount, unit: running.interval } : null,
      nextChargeDate: LIVE.has(row.status) ? formatNullableDate(row.next_payment_at) : null,
      nextAmount: LIVE.has(row.status) && row.next_amount !== null ? Number(row.next_amount) : null,
      remainingTimes: LIVE.has(row.status) ? remainingTimesOf(own) : 0,
      cancelAt: formatNullableDate(row.cancel_at),
      resumeAt: formatNullableDate(row.resume_at),
      mandate: mandate ? mandateLabel(mandate) : null,
      offered: offeredActions(row, settings.allowed),
    };
  });
}

/** The overview page: the customer's subscriptions, latest payments and invoices. */
export async function portalOverviewOf(ctx: AppContext, who: PortalCustomer, settings: PortalSettings): Promise<PortalOverview> {
  const zone = ctx.config.APP_TIMEZONE;
  const [rows, payments, invoices, creditNotes] = await Promise.all([
    portalOverviewRepository.subscriptionsOf(ctx.db, who.account.id, who.customerId),
    portalOverviewRepository.latestPaymentsOf(ctx.db, who.account.id, who.customerId, HISTORY_LENGTH),
    portalOverviewRepository.latestInvoicesOf(ctx.db, who.account.id, who.customerId, HISTORY_LENGTH),
    portalOverviewRepository.latestCreditNotesOf(ctx.db, who.account.id, who.customerId, HISTORY_LENGTH),
  ]);
  const refunds = await portalOverviewRepository.refundsOfPayments(
    ctx.db,
    who.account.id,
    who.customerId,
    payments.map((payment) => payment.id),
  );
  return {
    subscriptions: await subscriptionViews(ctx, who, rows, settings),
    payments: payments.map((payment) => ({
      date: calendarDateIn(fromDbDateTime(payment.paid_at ?? payment.created_at), zone),
      description: payment.description,
      amount: Number(payment.amount),
      currency: payment.currency,
      status: payment.status,
      refunds: refunds
        .filter((refund) => refund.payment_id === payment.id)
        .map((refund) => ({
          date: calendarDateIn(fromDbDateTime(refund.created_at), zone),
          amount: Number(refund.amount),
          currency: refund.currency,
          status: refund.status,
        })),
    })),
    creditNotes: creditNotes.map((note) => ({
      id: note.id,
      number: note.number,
      invoiceId: note.invoice_id,
      invoiceNumber: note.invoice_number,
      date: calendarDateIn(fromDbDateTime(note.created_at), zone),
      amount: Number(note.total_including_vat),
      currency: note.currency,
    })),
    invoices: invoices.map((invoice) => ({
      number: invoice.number ?? invoice.bookkeeping_reference ?? invoice.id,
      pdfId: invoice.status === 'issued' && invoice.number && invoice.document ? invoice.id : null,
      date: calendarDateIn(fromDbDateTime(invoice.created_at), zone),
      amount: Number(invoice.total_including_vat),
      currency: invoice.currency,
    })),
  };
}

/** One subscription of the customer for an action's page (404 for another's), as the overview shows it. */
export async function portalSubscriptionView(
  ctx: AppContext,
  who: PortalCustomer,
  row: SubscriptionRow,
  settings: PortalSettings,
): Promise<PortalSubscriptionView> {
  const [view] = await subscriptionViews(ctx, who, [row], settings);
  if (!view) throw new Error(`subscription ${row.id} gave no view`);
  return view;
}

/** The setting that allows an action: resuming goes with pausing. */
const SETTING_OF: Record<OfferedAction, PortalAction> = {
  pause: 'pause',
  resume: 'pause',
  skip: 'skip',
  cancel: 'cancel',
  'change-method': 'change-method',
};

/** The action cannot be done with the subscription as it is now (paused already, ending, nothing to skip). */
export class ActionNotOfferedError extends ConflictError {
  constructor(action: OfferedAction) {
    super(`The subscription does not offer "${action}" now`, 'portal_action_not_offered');
  }
}

/**
 * What an action's confirmation page shows: the customer's own subscription (else 404) when the
 * account allows the action (else 403) and the subscription offers it now (else 409).
 */
export async function actionSubjectOf(
  ctx: AppContext,
  who: PortalCustomer,
  id: string,
  action: OfferedAction,
): Promise<PortalSubscriptionView> {
  const settings = await requireAllowed(ctx, who, SETTING_OF[action]);
  const view = await portalSubscriptionView(ctx, who, await portalSubscription(ctx, who, id), settings);
  if (!view.offered.includes(action)) throw new ActionNotOfferedError(action);
  return view;
}

/** The subscriptions a new payment method can take over (those still charged), for the change page. */
export async function methodChangeSubjectsOf(ctx: AppContext, who: PortalCustomer): Promise<PortalSubscriptionView[]> {
  const settings = await requireAllowed(ctx, who, 'change-method');
  const rows = await portalOverviewRepository.subscriptionsOf(ctx.db, who.account.id, who.customerId);
  const views = await subscriptionViews(
    ctx,
    who,
    rows.filter((row) => LIVE.has(row.status)),
    settings,
  );
  if (!views.length) throw new ActionNotOfferedError('change-method');
  return views;
}

/** The customer's own credit note as a PDF; another customer's or account's is not found (404). */
export async function portalCreditNotePdf(ctx: AppContext, who: PortalCustomer, id: string): Promise<{ number: string; pdf: Buffer }> {
  const note = await portalOverviewRepository.creditNoteOf(ctx.db, who.account.id, who.customerId, id);
  if (!note) throw new NotFoundError('Credit note');
  return creditNotePdfOf(ctx.db, who.account.id, note.invoice_id, note.id);
}
