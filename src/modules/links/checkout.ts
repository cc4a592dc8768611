import type { Account, AppContext } from '../../context';
import type { PageLocale } from '../../i18n/locales';
import { calendarDateIn } from '../../time';
import { accountsRepository, type AccountRow } from '../accounts/repository';
import { customersRepository, type CustomerRow } from '../customers/repository';
import { createCustomer } from '../customers/service';
import { resumePayment, startPayment } from '../payments/pipeline';
import type { PaymentRow } from '../payments/repository';
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
  const link = await paymentLinksRepository.table(ctx.db).where({ id }).first();
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

/** The payments made for a link, newest first. */
const paymentsOfLink = (ctx: AppContext, link: PaymentLinkRow) =>
  ctx.db<PaymentRow>('payments').where({ account_id: link.account_id, purpose: 'link', purpose_id: link.id }).orderBy('created_at', 'desc').orderBy('id', 'desc');

/** What the page asks now: the payment's amount, or the first payment of a subscription or mandate link. */
export const amountDueNow = (link: Pick<PaymentLinkRow, 'type' | 'amount' | 'first_amount'>): number =>
  Number(link.type === 'payment' ? link.amount : (link.first_amount ?? link.amount));

export const linkReturnUrl = (ctx: AppContext, link: Pick<PaymentLinkRow, 'id'>) => `${ctx.config.publicUrl}/pay/${link.id}/return`;

/**
 * The checkout address for the buyer. A payment of this link still open (a double click, the buyer
 * coming back) is sent to again instead of a second one being made; one still `creating` (an
 * answer lost earlier) is resumed with its own key. Otherwise a new payment through the pipeline:
 * `first` for subscription and mandate links (the mandate comes from it), `oneoff` for a payment.
 */
export async function payLink(ctx: AppContext, found: PublicLink, buyer: Buyer | null, locale: PageLocale): Promise<string> {
  const { link, account } = found;
  const reason = unpayableReason(ctx, link);
  if (reason) throw new LinkNotPayableError(reason);
  const owner: Account = { id: account.id, name: account.name, bookkeeping_system: account.bookkeeping_system, public_ref: account.public_ref };

  const [latest] = await paymentsOfLink(ctx, link).limit(1);
  if (latest?.status === 'creating') {
    const resumed = await resumePayment(ctx, owner, latest, { answeredInRequest: true });
    if (resumed.status === 'open' && resumed.checkout_url) return resumed.checkout_url;
  }
  if (latest?.status === 'open' && latest.checkout_url) return latest.checkout_url;

  let customer = found.customer;
  if (!customer) {
    if (!buyer) throw new Error('a link without a customer needs the buyer’s name and e-mail');
    customer = await createCustomer(ctx, owner, { ...buyer, locale });
  }
  if (!customer.provider_customer_id) throw new Error(`customer ${customer.id} has no provider customer`);
  const payment = await startPayment(ctx, owner, {
    purpose: 'link',
    purposeId: link.id,
    customer: { id: customer.id, providerCustomerId: customer.provider_customer_id },
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
  if (!payment.checkout_url) throw new Error(`payment ${payment.id} has no checkout address`);
  return payment.checkout_url;
}

export type ReturnOutcome = 'paid' | 'failed' | 'pending';

/** What the buyer's return from the checkout means, from the link and its newest payment. */
export async function linkReturnOutcome(ctx: AppContext, link: PaymentLinkRow): Promise<ReturnOutcome> {
  if (link.status === 'paid') return 'paid';
  const [latest] = await paymentsOfLink(ctx, link).limit(1);
  if (!latest) return 'failed';
  if (latest.status === 'paid') return 'paid';
  if (['failed', 'canceled', 'expired', 'rejected'].includes(latest.status)) return 'failed';
  return 'pending';
}
