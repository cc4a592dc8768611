import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { NotFoundError, ValidationError, type FieldErrors } from '../../errors';
import { WITHOUT_IDEMPOTENCY_KEY, writeRemembered, type IdempotencyScope } from '../../db/idempotencyScope';
import type { ListFilterValues } from '../../db/tenantTable';
import type { Page, PageRequest } from '../../paging';
import { newId } from '../../ids';
import { calendarDateIn, toDbDateTime } from '../../time';
import { refuseUnchargeable } from '../../providers/amountLimits';
import { customersRepository } from '../customers/repository';
import { mandatesRepository, type MandateRow } from '../mandates/repository';
import {
  subscriptionsRepository,
  type InvoiceRuleRow,
  type SubscriptionRow,
  type SubscriptionRuleRow,
  type SubscriptionStatus,
} from './repository';
import type { CreateSubscriptionInput } from './requestSchemas';
import { invoiceRuleRowsFrom } from './invoiceRuleRows';
import { bookkeepingAdapterNamed } from '../../bookkeeping';
import { effectiveRuleDay, firstChargeDate } from './schedule';

/** The lifecycle changes (lifecycle.ts), for the routes. */
export { cancelSubscription, pauseSubscription, resumeSubscription } from './lifecycle';
export { skipNextCharge } from './skip';
export { updateSubscription } from './update';

const CREATE_FAILED = 'Could not create subscription. Some fields contain invalid data';
const CURRENCY = 'EUR';

/** A subscription can only be charged under a mandate the provider holds as valid; until then it waits as a draft. */
function statusUnder(mandate: MandateRow): SubscriptionStatus {
  return mandate.status === 'valid' && mandate.revoked_at === null ? 'active' : 'draft';
}

/** The rules that need the account, the clock or the database, reported together as one 422. */
async function checkAgainstAccount(ctx: AppContext, account: Account, input: CreateSubscriptionInput): Promise<MandateRow> {
  const fields: FieldErrors = {};
  const today = calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
  if (input.start_date < today) fields.start_date = ['The start date field must be a date after or equal to today.'];
  if (account.bookkeeping_system !== null) {
    for (const field of ['workflow_id', 'docstyle_id'] as const) {
      if (!input[field]) {
        fields[field] = [`The ${field.replace('_', ' ')} field is required when the account is connected to a bookkeeping system.`];
      }
    }
    // The account's system checks the ids where it can (its descriptor says how and in which words).
    const checkStyle = bookkeepingAdapterNamed(account.bookkeeping_system)?.checkDocumentStyle;
    if (checkStyle && input.workflow_id && input.docstyle_id) {
      const ids = { workflow_id: input.workflow_id, docstyle_id: input.docstyle_id };
      for (const [field, message] of Object.entries(await checkStyle(ctx, account.id, ids))) fields[field] = [message];
    }
  }
  let mandate: MandateRow | undefined;
  const customer = await customersRepository.find(ctx.db, account.id, input.customer_id);
  if (!customer) {
    fields.customer_id = ['The selected customer id is invalid.'];
  } else {
    mandate = await mandatesRepository.findForCustomer(ctx.db, account.id, customer.id, input.provider_mandate_id);
    if (!mandate) fields.provider_mandate_id = ['The selected provider mandate id is invalid.'];
  }
  if (!mandate || Object.keys(fields).length) throw new ValidationError(CREATE_FAILED, fields);
  return mandate;
}

function ruleRowsFrom(account: Pick<Account, 'id'>, subscriptionId: string, input: CreateSubscriptionInput): SubscriptionRuleRow[] {
  return input.rules.map((rule, position) => ({
    id: newId('rul'),
    account_id: account.id,
    subscription_id: subscriptionId,
    position,
    amount: rule.amount,
    currency: CURRENCY,
    interval: rule.interval,
    interval_amount: rule.interval_amount,
    day: effectiveRuleDay(rule.interval, rule.day, input.start_date),
    times: rule.times ?? null,
    times_done: 0,
  }));
}

/** A subscription with its rules and their invoice lines, ready to be written in one transaction. */
export interface NewSubscription {
  row: SubscriptionRow;
  rules: SubscriptionRuleRow[];
  invoiceRules: InvoiceRuleRow[];
}

/**
 * The rows of a new subscription on a mandate, rule after rule. The first charge date and amount
 * come from the first rule. Shared by the API and by payment links, so a subscription is the same
 * whoever makes it.
 */
export function newSubscription(
  account: Pick<Account, 'id'>,
  input: CreateSubscriptionInput,
  mandate: MandateRow,
  now: Date,
): NewSubscription {
  const subscriptionId = newId('sub');
  const rules = ruleRowsFrom(account, subscriptionId, input);
  const [first] = rules;
  if (!first) throw new Error('A subscription needs at least one rule'); // the body schema guarantees one
  const stamp = toDbDateTime(now);
  const row: SubscriptionRow = {
    id: subscriptionId,
    account_id: account.id,
    customer_id: mandate.customer_id,
    name: input.name,
    status: statusUnder(mandate),
    start_date: input.start_date,
    currency: CURRENCY,
    provider_mandate_id: mandate.id,
    provider_profile_id: input.provider_profile_id,
    next_payment_at: firstChargeDate(first, input.start_date),
    next_charge_number: 1,
    next_charge_date: firstChargeDate(first, input.start_date),
    next_amount: first.amount,
    last_payment_created_at: null,
    resume_at: null,
    cancel_at: null,
    workflow_id: input.workflow_id ?? null,
    docstyle_id: input.docstyle_id ?? null,
    created_at: stamp,
    updated_at: stamp,
  };
  return { row, rules, invoiceRules: invoiceRuleRowsFrom(account, rules, input) };
}

/**
 * Creates a subscription that the service bills itself. The subscription, its rules and their
 * invoice lines are written in one transaction, so a half-made subscription is never billed.
 */
export async function createSubscription(
  ctx: AppContext,
  account: Account,
  input: CreateSubscriptionInput,
  idempotency: IdempotencyScope = WITHOUT_IDEMPOTENCY_KEY,
): Promise<SubscriptionRow> {
  // A retry after a crash answers the subscription its earlier attempt wrote, never a second one.
  const earlier = idempotency.resumedResourceId && (await subscriptionsRepository.find(ctx.db, account.id, idempotency.resumedResourceId));
  if (earlier) return earlier;
  const mandate = await checkAgainstAccount(ctx, account, input);
  // Each rule's amount is charged on the mandate: one its method does not take is refused now, not on the day.
  await refuseUnchargeable(ctx, account, {
    sequenceType: 'recurring',
    currency: CURRENCY,
    methods: [mandate.method],
    amounts: input.rules.map((rule, index) => ({ amount: rule.amount, field: `rules.${index}.amount` })),
    message: CREATE_FAILED,
  });
  const { row, rules, invoiceRules } = newSubscription(account, input, mandate, ctx.clock.now());
  await writeRemembered(ctx.db, idempotency, row.id, (trx) => subscriptionsRepository.insertWithRules(trx, row, rules, invoiceRules));
  return row;
}

export async function getSubscription(ctx: AppContext, account: Account, id: string): Promise<SubscriptionRow> {
  const row = await subscriptionsRepository.find(ctx.db, account.id, id);
  if (!row) throw new NotFoundError('Subscription');
  return row;
}

/** One page of the list, filtered by the given columns (`?customer_id=&status=`; none: the whole list). */
export function listSubscriptions(
  ctx: AppContext,
  account: Account,
  request: PageRequest,
  filters: ListFilterValues = {},
): Promise<Page<SubscriptionRow>> {
  return subscriptionsRepository.pageFiltered(ctx.db, account.id, filters, request);
}
