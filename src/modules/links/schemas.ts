import { z } from 'zod';
import { listQueryWith, statusFilter } from '../../validation/listFilters';
import {
  amountInCents,
  calendarDate,
  currencyCode,
  httpUrl,
  intervalUnit,
  optionalText,
  positiveInteger,
  requiredEnum,
} from '../../validation/fields';
import { instantFromZonedDateTime } from '../../time';
import { customerResponse } from '../customers/schemas';
import { subscriptionRules } from '../subscriptions/requestSchemas';
import { nestedSubscriptionResponse } from '../subscriptions/schemas';
import { LINK_STATUSES, LINK_TYPES } from './repository';
import { parseTrialInterval } from './trial';

const MAX_INTERVAL_AMOUNT = 1000;

/** Links charge in euros, like everything else here; the field exists so a client can say so. */
/** `Y-m-d H:i:s` in APP_TIMEZONE, the API's date-time format; whether it lies ahead is checked in the service. */
const zonedDateTime = () =>
  z
    .string()
    .trim()
    .refine((text) => instantFromZonedDateTime(text, 'UTC') !== null, 'The :attribute field must be a valid date-time (Y-m-d H:i:s).');

const given = (value: unknown) => value !== undefined && value !== null;

/**
 * `POST /api/v2/links` (extension). A subscription link takes its regular charges in one of three
 * forms: `rules` (as for a subscription), a subscription `product_id`, or `amount` + `interval`
 * (+ `interval_amount`, `times`) for one rule. Which fields each type takes is checked below, all at
 * once; what needs the database or the clock is checked in the service.
 */
export const createPaymentLinkBody = z
  .object({
    type: requiredEnum(LINK_TYPES),
    description: optionalText(191).describe('required, except with product_id (then the product name)'),
    currency: currencyCode().optional().describe('ISO 4217; one the account can charge (EUR, the default), else 422 naming those'),
    amount: amountInCents('positive').nullable().optional().describe('payment: the amount; subscription: the regular amount with interval'),
    first_amount: amountInCents('positive')
      .nullable()
      .optional()
      .describe('paid on the page; subscription: default the first regular amount; mandate: default 0.01'),
    interval: intervalUnit().nullable().optional().describe('subscription: with amount, the unit of the regular charges'),
    interval_amount: positiveInteger().max(MAX_INTERVAL_AMOUNT).nullable().optional().describe('with interval: every N units (default 1)'),
    times: positiveInteger().nullable().optional().describe('with interval: number of regular charges; absent: until cancelled'),
    rules: subscriptionRules().nullable().optional().describe('subscription: the rules, as for POST /api/v2/subscriptions'),
    product_id: optionalText(40).describe('subscription: a subscription product whose amount, interval and times are used'),
    trial_interval: optionalText(32)
      .refine(
        (text) => !given(text) || parseTrialInterval(text as string) !== null,
        'The :attribute field must be a number and a unit, such as 14 days.',
      )
      .describe('subscription: `<number> <unit>` that delays the first regular charge, e.g. `14 days`'),
    reminder_at: zonedDateTime()
      .nullable()
      .optional()
      .describe('Y-m-d H:i:s in APP_TIMEZONE, in the future: when to e-mail the customer a reminder'),
    redirect_url_paid: httpUrl().nullable().optional(),
    redirect_url_failed: httpUrl().nullable().optional(),
    expires_at: calendarDate().nullable().optional().describe('Y-m-d, today or later; the link can be paid through that day'),
    customer_id: optionalText(40).describe('an existing customer; without one the page asks for name and e-mail'),
  })
  // Runs even when single fields failed, so every broken rule is reported at once; hence values are
  // compared, never assumed to be parsed.
  .superRefine(
    (body, ctx) => {
      const fail = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
      const prohibit = (fields: readonly (keyof typeof body)[], when: string) => {
        for (const field of fields) if (given(body[field])) fail(field, `The :attribute field is prohibited when ${when}.`);
      };
      const regularFields = ['interval', 'interval_amount', 'times', 'rules', 'product_id', 'trial_interval'] as const;
      if (body.type === 'payment') {
        if (!given(body.amount)) fail('amount', 'The :attribute field is required when type is payment.');
        prohibit([...regularFields, 'first_amount'], 'type is payment');
      }
      if (body.type === 'mandate') prohibit([...regularFields, 'amount'], 'type is mandate');
      if (body.type === 'subscription') {
        const forms = [given(body.rules), given(body.product_id), given(body.interval)].filter(Boolean).length;
        if (forms === 0) {
          fail('rules', 'The :attribute field is required when type is subscription, unless product_id or amount and interval are given.');
        }
        if (forms > 1) fail('rules', 'Give the regular charges one way: rules, product_id, or amount and interval.');
        if (given(body.interval) && !given(body.amount)) fail('amount', 'The :attribute field is required when interval is given.');
        if (!given(body.interval)) {
          prohibit(['interval_amount', 'times'], 'interval is not given');
          if (given(body.amount)) fail('amount', 'The :attribute field is prohibited when type is subscription without interval.');
        }
      }
      if (!given(body.description) && !given(body.product_id)) fail('description', 'The :attribute field is required.');
      // The reminder is e-mailed to the link's customer: without one there is nobody to write to.
      if (given(body.reminder_at) && !given(body.customer_id))
        fail('customer_id', 'The :attribute field is required when reminder at is given.');
    },
    { when: () => true },
  );

export type CreatePaymentLinkInput = z.output<typeof createPaymentLinkBody>;

/** docs/api.md, Payment link: fields a link of its type does not use are null. */
export const paymentLinkResponse = z.object({
  id: z.string(),
  status: z.enum(LINK_STATUSES),
  active: z.boolean(),
  type: z.enum(LINK_TYPES),
  description: z.string(),
  currency: z.string(),
  created_at: z.string().describe('Y-m-d H:i:s in APP_TIMEZONE'),
  url: z.string().describe('address of the hosted payment page'),
  amount: z.string(),
  first_amount: z.string().nullable().describe('amount of the first charge'),
  interval: z.string().nullable(),
  times: z.number().int().nullable(),
  trial_interval: z.string().nullable().describe('`<number> <unit>`, e.g. `14 days`'),
  reminder_at: z.string().nullable().describe('Y-m-d H:i:s in APP_TIMEZONE'),
  redirect_url_paid: z.string().nullable(),
  redirect_url_failed: z.string().nullable(),
  expires_at: z.string().nullable().describe('Y-m-d'),
  customer: customerResponse.nullable(),
  subscription: nestedSubscriptionResponse.nullable(),
});

export type PaymentLinkResponse = z.infer<typeof paymentLinkResponse>;

/** `GET /api/v2/links`: the page query and its filter (an extension). */
export const paymentLinkListQuery = listQueryWith({ status: statusFilter(LINK_STATUSES) });
