import type { AppContext } from '../../context';
import { toDbDateTime } from '../../time';
import { markReconciled, reconcileAgainAt, type GivenUpCall } from '../../webhooks/inbound/calls';
import { accountSettingsRepository } from '../accounts/settingsRepository';
import { paymentsRepository, type PaymentRow } from './repository';
import { syncPaymentFromProvider } from './service';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long after creation the provider may still leave a payment open or pending, per method.
 * Mollie, "Payment status changes → Expiry times per payment method" (docs.mollie.com): iDEAL and
 * paysafecard 15 minutes; credit card 30 minutes; Bancontact, Belfius, EPS, giropay, KBC, MyBank,
 * Przelewy24 1 hour; SOFORT 2 hours; PayPal and vouchers 3 hours; Klarna 48 hours; bank transfer
 * 12 days, plus 1 or 2 when the 12th day falls in a weekend. SEPA Direct Debit is pending until the
 * bank answers, up to about 5 working days (Mollie help centre, "processing times"): 7 calendar days.
 * Past this time a payment that is still open here has most likely lost its webhook.
 */
export const PAYMENT_EXPIRY_BY_METHOD: Readonly<Record<string, number>> = {
  ideal: 15 * MINUTE,
  paysafecard: 15 * MINUTE,
  creditcard: 30 * MINUTE,
  bancontact: HOUR,
  belfius: HOUR,
  eps: HOUR,
  giropay: HOUR,
  kbc: HOUR,
  mybank: HOUR,
  przelewy24: HOUR,
  sofort: 2 * HOUR,
  paypal: 3 * HOUR,
  voucher: 3 * HOUR,
  klarnapaylater: 48 * HOUR,
  klarnasliceit: 48 * HOUR,
  klarnapaynow: 48 * HOUR,
  banktransfer: 14 * DAY,
  directdebit: 7 * DAY,
};

/**
 * No method yet (the payer picks one on the checkout page) or one we do not know: after the
 * longest of the redirect methods. Should the payer have picked a bank transfer, the fetch finds it
 * still open and it is asked again every RECHECK_AFTER, no more often.
 */
export const DEFAULT_PAYMENT_EXPIRY = 3 * HOUR;

/** Past the expiry, the provider's own webhook for it gets one job interval to arrive first. */
export const EXPIRY_MARGIN = 10 * MINUTE;

/**
 * A payment fetched without news is left alone this long. There is no last-checked column: a fetch
 * that changes nothing moves updated_at (which the API does not show), so "not touched for this
 * long" covers both a fetch and a status change by a webhook. Kept below the shortest expiry plus
 * the margin (25 minutes), so it never delays the first fetch of a payment untouched since creation.
 */
export const RECHECK_AFTER = 20 * MINUTE;

/** Statuses the provider can still move on its own. */
const UNSETTLED_STATUSES = ['open', 'pending', 'authorized'] as const;

export type PaymentDueForReconciliation = Pick<PaymentRow, 'id' | 'account_id' | 'status' | 'method' | 'created_at' | 'updated_at'> & {
  provider_payment_id: string;
};

const KNOWN_METHODS = Object.keys(PAYMENT_EXPIRY_BY_METHOD);

/** Methods grouped by expiry, so the query has one condition per distinct expiry. */
const METHODS_BY_EXPIRY = [...new Set(Object.values(PAYMENT_EXPIRY_BY_METHOD))].map((expiry) => ({
  expiry,
  methods: KNOWN_METHODS.filter((method) => PAYMENT_EXPIRY_BY_METHOD[method] === expiry),
}));

/** The created_at cut-offs: so long ago that the method's expiry plus the margin has passed. */
function expiryCutOffs(now: Date) {
  const createdBefore = (expiry: number) => toDbDateTime(new Date(now.getTime() - expiry - EXPIRY_MARGIN));
  return {
    byMethods: METHODS_BY_EXPIRY.map(({ expiry, methods }) => ({ methods, createdBefore: createdBefore(expiry) })),
    otherMethods: { known: KNOWN_METHODS, createdBefore: createdBefore(DEFAULT_PAYMENT_EXPIRY) },
  };
}

/**
 * Up to `limit` payments, over all accounts, that are still unsettled past their method's expiry
 * and were not touched for RECHECK_AFTER; the longest untouched first, so a payment that stays
 * pending goes to the back of the queue after each fetch and cannot starve the others.
 *
 * One query per account: the only index on status is (account_id, status), which a query on status
 * alone cannot use (MariaDB has no skip scan) and would scan every payment ever made; per account,
 * it reads just the unsettled rows. Accounts are few (one per shop), payments many.
 */
export async function paymentsDueForReconciliation(ctx: AppContext, limit: number): Promise<PaymentDueForReconciliation[]> {
  const now = ctx.clock.now();
  const untouchedSince = toDbDateTime(new Date(now.getTime() - RECHECK_AFTER));
  const accounts = await accountSettingsRepository.allIds(ctx.db);
  const due: PaymentDueForReconciliation[] = [];
  for (const accountId of accounts) {
    const rows = (await paymentsRepository.unsettledPastExpiry(ctx.db, accountId, {
      statuses: UNSETTLED_STATUSES,
      untouchedSince,
      pastCutOff: expiryCutOffs(now),
      limit,
    })) as PaymentDueForReconciliation[];
    due.push(...rows);
  }
  // Stored times are fixed-width UTC strings: they sort as text.
  return due.sort((a, b) => a.updated_at.localeCompare(b.updated_at) || a.created_at.localeCompare(b.created_at)).slice(0, limit);
}

/**
 * Asks the provider about one payment and applies what it says (forward-only, recorded in the
 * status history, see syncPaymentFromProvider). When nothing changed, or the provider could not be
 * asked, updated_at moves to now so the next runs leave the payment alone for RECHECK_AFTER.
 */
export async function reconcilePayment(ctx: AppContext, payment: PaymentDueForReconciliation): Promise<PaymentRow | null> {
  const touch = () =>
    paymentsRepository.updateStatusIfUnchanged(ctx.db, payment.account_id, payment.id, payment.status, { updated_at: toDbDateTime(ctx.clock.now()) });
  let synced: PaymentRow | null;
  try {
    synced = await syncPaymentFromProvider(ctx, payment.account_id, payment.provider_payment_id);
  } catch (error) {
    await touch();
    throw error;
  }
  if (synced?.status === payment.status) await touch();
  return synced;
}

/**
 * A provider webhook call given up after 26 hours (the provider unreachable all that time) named a
 * payment whose news never got here — a refund or chargeback of a paid payment too, which the sweep
 * of unsettled payments above never looks at. The payment is fetched and applied whatever its status
 * here, and the calls are marked reconciled; a failed fetch is tried again after RECHECK_AFTER.
 */
export async function reconcileGivenUpCall(ctx: AppContext, call: GivenUpCall): Promise<void> {
  try {
    await syncPaymentFromProvider(ctx, call.account_id, call.resource_id);
  } catch (error) {
    await reconcileAgainAt(ctx, call, new Date(ctx.clock.now().getTime() + RECHECK_AFTER));
    throw error;
  }
  await markReconciled(ctx, call);
}
