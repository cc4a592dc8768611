import { z } from 'zod';
import { amountInCents, calendarDate, intervalUnit, optionalText, positiveInteger, requiredText } from '../../validation/fields';
import { idFilter, listQueryWith, statusFilter } from '../../validation/listFilters';
import { STORE_SUBSCRIPTIONS_IMPORT } from '../../integrations';
import { SUBSCRIPTION_STATUSES, type RuleInterval } from './repository';

const MAX_RULES = 20;
const MAX_INVOICE_RULES = 50;
const MAX_INTERVAL_AMOUNT = 1000;

/** Absent, null and 0 all mean "the day of the start date". */
const optionalDay = z
  .number()
  .int()
  .nullable()
  .optional()
  .describe('0 or absent: the day of the start date; month/year: 1..31, clamped to the month; week: 1..7, ISO Monday = 1; day: 0');

const VAT_PERCENTAGE = /^\d{1,3}(\.\d{1,2})?$/;

const invoiceRule = z.object({
  quantity: positiveInteger(),
  description: requiredText(191),
  // Negative lines are discounts; a zero line (a free item) is allowed.
  amount: amountInCents('any'),
  vat: optionalText(8).refine(
    (vat) => vat === null || vat === undefined || (VAT_PERCENTAGE.test(vat) && Number(vat) <= 100),
    'The :attribute field must be a VAT percentage such as 21 or 9.5.',
  ),
  ledger_account_id: optionalText(191),
});

/** Which `day` a rule may name depends on its interval (DESIGN "rule fields"). */
function checkRuleDay(rule: { interval: RuleInterval; day?: number | null }, ctx: z.RefinementCtx): void {
  const day = rule.day ?? 0;
  const fail = (message: string) => ctx.addIssue({ code: 'custom', path: ['day'], message });
  if (rule.interval === 'day' && day !== 0) fail('The :attribute field must be 0 or absent when the interval is day.');
  if (rule.interval === 'week' && (day < 0 || day > 7))
    fail('The :attribute field must be between 1 and 7 (ISO weekday, Monday = 1) for a weekly rule.');
  if ((rule.interval === 'month' || rule.interval === 'year') && (day < 0 || day > 31)) {
    fail('The :attribute field must be between 1 and 31 for a monthly or yearly rule.');
  }
}

/** One rule in request form, amounts in cents; also what a subscription payment link stores. */
export const subscriptionRule = z
  .object({
    amount: amountInCents('positive'),
    // Singular and plural units are accepted, as for products; the singular is stored and shown.
    interval: intervalUnit(),
    interval_amount: positiveInteger().max(MAX_INTERVAL_AMOUNT),
    day: optionalDay,
    times: positiveInteger().nullable().optional().describe('absent or null: until cancelled'),
    invoice_rules: z.array(invoiceRule).max(MAX_INVOICE_RULES).optional(),
  })
  .superRefine(checkRuleDay);

/** Rules run one after another: at least one, at most MAX_RULES. */
export const subscriptionRules = () => z.array(subscriptionRule).min(1).max(MAX_RULES);

/**
 * POST /api/v2/subscriptions (docs/api.md, Subscription). Rules that need the account or the clock (start date not
 * in the past, bookkeeping ids, customer and mandate of this account) are checked in the service.
 */
export const createSubscriptionBody = z.object({
  name: requiredText(191),
  customer_id: requiredText(40),
  provider_profile_id: requiredText(64),
  provider_mandate_id: requiredText(64),
  start_date: calendarDate().describe('Y-m-d, today or later in APP_TIMEZONE'),
  rules: subscriptionRules(),
  workflow_id: optionalText(191).describe('required when the account has a bookkeeping system'),
  docstyle_id: optionalText(191).describe('required when the account has a bookkeeping system'),
});

/**
 * An invoice rule as the service makes it: the request's, or one from a store order or an import that
 * keeps the VAT charged on its line (`vat_amount`, cents). Never read from a request: the schema drops it.
 */
export type InvoiceRuleInput = z.output<typeof invoiceRule> & { vat_amount?: number | null };
export type CreateSubscriptionRuleInput = Omit<z.output<typeof subscriptionRule>, 'invoice_rules'> & { invoice_rules?: InvoiceRuleInput[] };
export type CreateSubscriptionInput = Omit<z.output<typeof createSubscriptionBody>, 'rules'> & { rules: CreateSubscriptionRuleInput[] };

/** `DELETE /api/v2/subscriptions/{id}` (extension); a body is optional. */
export const cancelSubscriptionBody = z.object({ cancel_at: calendarDate().optional().describe('Y-m-d; absent or past: today') }).strict();

/** `POST /api/v2/subscriptions/{id}/pause` (extension); a body is optional. */
export const pauseSubscriptionBody = z
  .object({ resume_at: calendarDate().optional().describe('Y-m-d, after today; absent: until resumed') })
  .strict();

/**
 * `PATCH /api/v2/subscriptions/{id}` (extension): one or more of these; rules are validated as on create
 * and apply from the next period not charged yet. At least one field.
 */
export const updateSubscriptionBody = z
  .object({
    name: requiredText(191).optional(),
    provider_mandate_id: requiredText(64).optional().describe('a valid, not revoked mandate of the same customer'),
    rules: subscriptionRules().optional().describe('the whole plan: periods already charged keep theirs and count against times'),
  })
  .strict()
  .refine((body) => body.name !== undefined || body.provider_mandate_id !== undefined || body.rules !== undefined, {
    message: 'The request must change at least one of name, provider_mandate_id and rules.',
    path: ['name'],
  });

export type UpdateSubscriptionInput = z.output<typeof updateSubscriptionBody>;

/**
 * `GET /api/v2/subscriptions`: the page query and its filters (extensions). `shop_subscription_id`:
 * the one billing that subscription of the store's subscriptions extension (the plugin finds ours by it).
 */
export const subscriptionListQuery = listQueryWith({
  customer_id: idFilter('cus'),
  status: statusFilter(SUBSCRIPTION_STATUSES),
  shop_subscription_id: z
    .string()
    .regex(/^[1-9][0-9]{0,17}$/, 'The :attribute field must be a store subscription id (a positive whole number).')
    .optional()
    .describe(`a store subscription's id (${STORE_SUBSCRIPTIONS_IMPORT.extensionName})`),
});
