import type { ListFilterValues } from '../../db/tenantTable';
import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { NotFoundError, ValidationError, type FieldErrors } from '../../errors';
import { WITHOUT_IDEMPOTENCY_KEY, writeRemembered, type IdempotencyScope } from '../../db/idempotencyScope';
import type { Page, PageRequest } from '../../paging';
import { newId } from '../../ids';
import type { Cents } from '../../money';
import { calendarDateIn, instantFromZonedDateTime, toDbDateTime } from '../../time';
import { customersRepository } from '../customers/repository';
import { refuseUnchargeable } from '../../providers/amountLimits';
import { productsRepository } from '../products/repository';
import { paymentLinksRepository, type PaymentLinkRow } from './repository';
import { serializeLinkRules, type LinkRule } from './rules';
import type { CreatePaymentLinkInput } from './schemas';
import { formatTrialInterval, parseTrialInterval } from './trial';

const CREATE_FAILED = 'Could not create payment link. Some fields contain invalid data';
const CURRENCY = 'EUR';
/** A mandate link's first payment only proves the account is the payer's: one cent unless told otherwise. */
const MANDATE_FIRST_AMOUNT: Cents = 1;

export async function getPaymentLink(ctx: AppContext, account: Account, id: string): Promise<PaymentLinkRow> {
  const row = await paymentLinksRepository.find(ctx.db, account.id, id);
  if (!row) throw new NotFoundError('Payment link');
  return row;
}

/** One page of the list, filtered by the given columns (`?status=`…; none: the whole list). */
export function listPaymentLinks(
  ctx: AppContext,
  account: Account,
  request: PageRequest,
  filters: ListFilterValues = {},
): Promise<Page<PaymentLinkRow>> {
  return paymentLinksRepository.pageFiltered(ctx.db, account.id, filters, request);
}

/** What the link charges later, resolved from whichever form the request used. */
interface Resolved {
  rules: LinkRule[];
  description: string | null;
  productId: string | null;
}

/** The rules of a subscription link, and the checks that need the account, the database or the clock, as one 422. */
async function resolveAgainstAccount(ctx: AppContext, account: Account, input: CreatePaymentLinkInput): Promise<Resolved> {
  const fields: FieldErrors = {};
  const today = calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
  if (input.expires_at && input.expires_at < today) fields.expires_at = ['The expires at field must be a date after or equal to today.'];
  if (input.reminder_at) {
    const at = instantFromZonedDateTime(input.reminder_at, ctx.config.APP_TIMEZONE);
    if (!at || at.getTime() <= ctx.clock.now().getTime()) fields.reminder_at = ['The reminder at field must be a date-time in the future.'];
    else if (input.expires_at && calendarDateIn(at, ctx.config.APP_TIMEZONE) > input.expires_at) {
      fields.reminder_at = ['The reminder at field must be on or before the expires at date.'];
    }
  }
  if (input.customer_id && !(await customersRepository.find(ctx.db, account.id, input.customer_id))) {
    fields.customer_id = ['The selected customer id is invalid.'];
  }
  const resolved: Resolved = { rules: input.rules ?? [], description: input.description ?? null, productId: null };
  if (input.product_id) {
    const product = await productsRepository.find(ctx.db, account.id, input.product_id);
    if (!product) fields.product_id = ['The selected product id is invalid.'];
    else if (product.type !== 'subscription' || product.interval === null || product.interval_value === null) {
      fields.product_id = ['The product id field must name a subscription product.'];
    } else {
      resolved.rules = [
        { amount: product.amount, interval: product.interval, interval_amount: product.interval_value, day: null, times: product.times },
      ];
      resolved.description ??= product.name;
      resolved.productId = product.id;
    }
  }
  if (input.type === 'subscription' && input.interval && input.amount) {
    resolved.rules = [
      {
        amount: input.amount,
        interval: input.interval,
        interval_amount: input.interval_amount ?? 1,
        day: null,
        times: input.times ?? null,
      },
    ];
  }
  if (Object.keys(fields).length) throw new ValidationError(CREATE_FAILED, fields);
  return resolved;
}

/** What a link's page asks for now, and what its resource shows as `amount` (the regular amount for subscriptions). */
function amountsOf(input: CreatePaymentLinkInput, rules: LinkRule[]): { amount: Cents; firstAmount: Cents | null } {
  switch (input.type) {
    case 'payment':
      return { amount: input.amount ?? 0, firstAmount: null };
    case 'mandate': {
      const first = input.first_amount ?? MANDATE_FIRST_AMOUNT;
      return { amount: first, firstAmount: first };
    }
    case 'subscription': {
      const regular = rules[0]?.amount ?? 0;
      return { amount: regular, firstAmount: input.first_amount ?? regular };
    }
  }
}

/**
 * What paying the link charges, refused (422) when the account's provider would not take it: the page's payment
 * (one-off, or the first of a mandate) and, for a subscription, each regular charge on the mandate it leaves.
 */
async function refuseUnchargeableLink(
  ctx: AppContext,
  account: Account,
  input: CreatePaymentLinkInput,
  rules: LinkRule[],
  asked: { amount: Cents; firstAmount: Cents | null },
): Promise<void> {
  const currency = input.currency ?? CURRENCY;
  const common = { currency, currencyField: 'currency', message: CREATE_FAILED };
  if (input.type === 'payment') {
    await refuseUnchargeable(ctx, account, { ...common, sequenceType: 'oneoff', amounts: [{ amount: asked.amount, field: 'amount' }] });
    return;
  }
  const firstField = input.first_amount !== undefined && input.first_amount !== null ? 'first_amount' : 'amount';
  await refuseUnchargeable(ctx, account, {
    ...common,
    sequenceType: 'first',
    amounts: [{ amount: asked.firstAmount ?? asked.amount, field: firstField }],
  });
  if (input.type !== 'subscription') return;
  const ruleField = (index: number) => (input.rules ? `rules.${index}.amount` : input.product_id ? 'product_id' : 'amount');
  await refuseUnchargeable(ctx, account, {
    ...common,
    sequenceType: 'recurring',
    amounts: rules.map((rule, index) => ({ amount: rule.amount, field: ruleField(index) })),
  });
}

/**
 * Creates a payment link (extension). Nothing is charged here: the page creates the payment when the
 * buyer presses pay, and paying fulfils the link (fulfilment.ts).
 */
export async function createPaymentLink(
  ctx: AppContext,
  account: Account,
  input: CreatePaymentLinkInput,
  idempotency: IdempotencyScope = WITHOUT_IDEMPOTENCY_KEY,
): Promise<PaymentLinkRow> {
  const earlier = idempotency.resumedResourceId && (await paymentLinksRepository.find(ctx.db, account.id, idempotency.resumedResourceId));
  if (earlier) return earlier;
  const resolved = await resolveAgainstAccount(ctx, account, input);
  const { amount, firstAmount } = amountsOf(input, resolved.rules);
  await refuseUnchargeableLink(ctx, account, input, resolved.rules, { amount, firstAmount });
  const [firstRule] = resolved.rules;
  const trial = input.trial_interval ? parseTrialInterval(input.trial_interval) : null;
  const reminderAt = input.reminder_at ? instantFromZonedDateTime(input.reminder_at, ctx.config.APP_TIMEZONE) : null;
  const now = toDbDateTime(ctx.clock.now());
  const row: PaymentLinkRow = {
    id: newId('lnk'),
    account_id: account.id,
    customer_id: input.customer_id ?? null,
    subscription_id: null,
    type: input.type,
    status: 'open',
    active: true,
    description: resolved.description ?? '',
    currency: input.currency ?? CURRENCY,
    amount,
    first_amount: firstAmount,
    interval: firstRule?.interval ?? null,
    times: firstRule?.times ?? null,
    trial_interval: trial ? formatTrialInterval(trial) : null,
    reminder_at: reminderAt ? toDbDateTime(reminderAt) : null,
    redirect_url_paid: input.redirect_url_paid ?? null,
    redirect_url_failed: input.redirect_url_failed ?? null,
    expires_at: input.expires_at ?? null,
    rules: input.type === 'subscription' ? serializeLinkRules(resolved.rules) : null,
    product_id: resolved.productId,
    reminder_sent_at: null,
    paid_at: null,
    created_at: now,
    updated_at: now,
  };
  await writeRemembered(ctx.db, idempotency, row.id, (trx) => paymentLinksRepository.insert(trx, row));
  return row;
}

/**
 * `DELETE /api/v2/links/{id}` (extension): the link can no longer be paid. An open link becomes
 * `cancelled`; a paid or expired one keeps its status — that happened — and is only made inactive.
 * Repeating it changes nothing.
 */
export async function deactivatePaymentLink(ctx: AppContext, account: Account, id: string): Promise<PaymentLinkRow> {
  const row = await getPaymentLink(ctx, account, id);
  await withdrawLink(ctx.db, account.id, row.id, toDbDateTime(ctx.clock.now()));
  return getPaymentLink(ctx, account, id);
}

/** Makes a link unpayable (inactive; an open one cancelled), in the caller's transaction or not. */
export async function withdrawLink(db: Knex, accountId: string, id: string, now: string): Promise<void> {
  await paymentLinksRepository.update(db, { id, account_id: accountId }, { active: false, updated_at: now });
  // Conditional, so a payment settling at this moment keeps its `paid`.
  await paymentLinksRepository.cancelIfOpen(db, { id, account_id: accountId }, now);
}

/**
 * A payment link the service makes itself (a follow-up of a failed charge): one payment of `amount`
 * for a known customer, open until `expiresAt`. Returned as a row for the caller to insert in its
 * own transaction, with whatever else it records.
 */
export function followUpLinkRow(
  account: Pick<Account, 'id'>,
  input: { customerId: string | null; amount: Cents; currency: string; description: string; expiresAt: string },
  now: string,
): PaymentLinkRow {
  return {
    id: newId('lnk'),
    account_id: account.id,
    customer_id: input.customerId,
    subscription_id: null,
    type: 'payment',
    status: 'open',
    active: true,
    description: input.description.slice(0, 191),
    currency: input.currency,
    amount: input.amount,
    first_amount: null,
    interval: null,
    times: null,
    trial_interval: null,
    reminder_at: null,
    redirect_url_paid: null,
    redirect_url_failed: null,
    expires_at: input.expiresAt,
    rules: null,
    product_id: null,
    reminder_sent_at: null,
    paid_at: null,
    created_at: now,
    updated_at: now,
  };
}
