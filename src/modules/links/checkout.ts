import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import type { PageLocale } from '../../i18n/locales';
import { calendarDateIn } from '../../time';
import { accountsRepository, type AccountRow } from '../accounts/repository';
import { customersRepository, type CustomerRow } from '../customers/repository';
import { createCustomer } from '../customers/service';
import { PaymentInProgressError, resumePayment, startPayment } from '../payments/pipeline';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import { ENDED_WITHOUT_MONEY } from '../payments/transitions';
import { paymentLinksRepository, type PaymentLinkRow } from './repository';

/**
 * Paying a link from its hosted page: which links can be paid, the payment the pay button makes
 * (through the one pipeline, purpose `link`), and what the buyer's return means.
 */

/** Why a link cannot be paid (any more); the page answers 410 with the matching words. */
export type UnpayableReason = 'paid' | 'expired' | 'cancelled' | 'inactive';

export interface PublicLink {
  link: PaymentLinkRow;
  account: AccountRow;
  /** The link's own customer, when it was made for one. */
  customer: CustomerRow | null;
}

/** The link behind a public page address; ids are long random strings, so they can be looked up without an account. */
export async function findPublicLink(ctx: AppContext, id: string): Promise<PublicLink | null> {
  const link = await paymentLinksRepository.findPublic(ctx.db, id);
  if (!link) return null;
  const account = await accountsRepository.findById(ctx.db, link.account_id);
  if (!account) return null;
  const customer = link.customer_id === null ? null : ((await customersRepository.find(ctx.db, link.account_id, link.customer_id)) ?? null);
  return { link, account, customer };
}

export function unpayableReason(ctx: AppContext, link: PaymentLinkRow): UnpayableReason | null {
  if (link.status === 'paid') return 'paid';
  if (link.status === 'cancelled') return 'cancelled';
  const today = calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
  if (link.status === 'expired' || (link.expires_at !== null && link.expires_at.slice(0, 10) < today)) return 'expired';
  if (!Number(link.active)) return 'inactive';
  return null;
}

export class LinkNotPayableError extends Error {
  constructor(readonly reason: UnpayableReason) {
    super(`the payment link cannot be paid: ${reason}`);
  }
}

/** Who pays, asked on the page when the link was not made for a known customer. */
export interface Buyer {
  first_name: string;
  last_name: string;
  email: string;
}

/** The latest payment made for a link. */
const latestPaymentOf = (ctx: AppContext, link: PaymentLinkRow) =>
  paymentsRepository.latestOfPurpose(ctx.db, link.account_id, 'link', link.id);

/** What the page asks now: the payment's amount, or the first payment of a subscription or mandate link. */
export const amountDueNow = (link: Pick<PaymentLinkRow, 'type' | 'amount' | 'first_amount'>): number =>
  link.type === 'payment' ? link.amount : (link.first_amount ?? link.amount);

export const linkReturnUrl = (ctx: AppContext, link: Pick<PaymentLinkRow, 'id'>) => `${ctx.config.publicUrl}/pay/${link.id}/return`;

/** A payment the payer may still complete, or whose outcome the provider has not told yet. */
const IN_PROGRESS: ReadonlySet<string> = new Set(['open', 'pending', 'authorized']);
const isInProgress = (payment: PaymentRow) => IN_PROGRESS.has(payment.status);

/**
 * The link's payment that is under way and cannot be gone back to (a bank transfer, a checkout
 * finished whose outcome is not final yet, an open payment without a checkout address): while it
 * is, the page says so and makes no second payment. Null when there is none, or when the latest
 * payment is open with a checkout the buyer can return to.
 */
export async function paymentInProgress(ctx: AppContext, link: PaymentLinkRow): Promise<PaymentRow | null> {
  const latest = await latestPaymentOf(ctx, link);
  return latest && isInProgress(latest) && !(latest.status === 'open' && latest.checkout_url) ? latest : null;
}

/** What pressing pay leads to: the provider's checkout, or the page of a payment already under way. */
export type PayOutcome = { checkoutUrl: string } | { inProgress: PaymentRow };

/**
 * The customer of the buyer's earlier attempt at this link, when it is the same buyer (same
 * e-mail): a second attempt pays as that customer instead of making another. A different e-mail is
 * a different payer, whose mandate must not end up under someone else's name.
 */
async function earlierBuyer(
  ctx: AppContext,
  link: PaymentLinkRow,
  latest: PaymentRow | undefined,
  buyer: Buyer,
): Promise<CustomerRow | null> {
  if (!latest?.customer_id) return null;
  const earlier = await customersRepository.find(ctx.db, link.account_id, latest.customer_id);
  return earlier?.provider_customer_id && earlier.email.toLowerCase() === buyer.email.toLowerCase() ? earlier : null;
}

/**
 * Where the pay button leads. One payment at a time per link: one still open (a double click, the
 * buyer coming back) is sent to again; one still `creating` (an answer lost earlier) is resumed with
 * its own key; one pending or authorized (a bank transfer, a checkout finished whose outcome is not
 * final) is shown as in progress. Only otherwise a new payment through the pipeline: `first` for
 * subscription and mandate links (the mandate comes from it), `oneoff` for a payment.
 */
export async function payLink(ctx: AppContext, found: PublicLink, buyer: Buyer | null, locale: PageLocale): Promise<PayOutcome> {
  const { link, account } = found;
  const reason = unpayableReason(ctx, link);
  if (reason) throw new LinkNotPayableError(reason);
  const owner: Account = {
    id: account.id,
    name: account.name,
    bookkeeping_system: account.bookkeeping_system,
    public_ref: account.public_ref,
  };

  const latest = await latestPaymentOf(ctx, link);
  const current = latest?.status === 'creating' ? await resumePayment(ctx, owner, latest, { answeredInRequest: true }) : latest;
  if (current && isInProgress(current)) {
    return current.status === 'open' && current.checkout_url ? { checkoutUrl: current.checkout_url } : { inProgress: current };
  }

  let customer = found.customer;
  if (!customer) {
    if (!buyer) throw new Error('a link without a customer needs the buyer’s name and e-mail');
    customer = (await earlierBuyer(ctx, link, latest, buyer)) ?? (await createCustomer(ctx, owner, { ...buyer, locale }));
  }
  if (!customer.provider_customer_id) throw new Error(`customer ${customer.id} has no provider customer`);
  let payment: PaymentRow;
  try {
    payment = await startLinkPayment(ctx, owner, link, { id: customer.id, providerCustomerId: customer.provider_customer_id });
  } catch (error) {
    // Pressed twice at once: the database let the other press's payment in; this one goes there too.
    if (!(error instanceof PaymentInProgressError)) throw error;
    const underWay = error.payment;
    return underWay.status === 'open' && underWay.checkout_url ? { checkoutUrl: underWay.checkout_url } : { inProgress: underWay };
  }
  if (!payment.checkout_url) throw new Error(`payment ${payment.id} has no checkout address`);
  return { checkoutUrl: payment.checkout_url };
}

/** The link's payment through the pipeline, one under way at a time (`link-<id>`). */
function startLinkPayment(
  ctx: AppContext,
  owner: Account,
  link: PaymentLinkRow,
  customer: { id: string; providerCustomerId: string },
): Promise<PaymentRow> {
  return startPayment(ctx, owner, {
    purpose: 'link',
    purposeId: link.id,
    inProgressKey: `link-${link.id}`,
    customer,
    sequenceType: link.type === 'payment' ? 'oneoff' : 'first',
    mandateId: null,
    amount: amountDueNow(link),
    currency: link.currency,
    description: link.description,
    method: null,
    redirectUrl: linkReturnUrl(ctx, link),
    webhookUrl: null,
    profileId: null,
  });
}

export type ReturnOutcome = 'paid' | 'failed' | 'pending';

/** What the buyer's return from the checkout means, from the link and its newest payment. */
export async function linkReturnOutcome(ctx: AppContext, link: PaymentLinkRow): Promise<ReturnOutcome> {
  if (link.status === 'paid') return 'paid';
  const latest = await latestPaymentOf(ctx, link);
  if (!latest) return 'failed';
  if (latest.status === 'paid') return 'paid';
  if (ENDED_WITHOUT_MONEY.has(latest.status)) return 'failed';
  return 'pending';
}
