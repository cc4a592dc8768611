import { z } from 'zod';
import { amountInCents, currencyCode, httpUrl, requiredText } from '../../validation/fields';
import { idFilter, listQueryWith, statusFilter } from '../../validation/listFilters';
import { PAYMENT_ROW_STATUSES } from './transitions';

export const PAYMENT_METHODS = ['ideal', 'creditcard', 'bancontact', 'sofort', 'eps', 'giropay', 'belfius', 'kbc', 'banktransfer'] as const;

export const createPaymentBody = z
  .object({
    amount: amountInCents('any').describe(
      'greater than 0; 0 only with shop_order_id for a store order with subscriptions and nothing to pay now (a free trial)',
    ),
    currency: currencyCode().describe('ISO 4217; one the account can charge (EUR), else 422 naming those'),
    provider_customer_id: requiredText(64),
    description: requiredText(191),
    redirect_url: httpUrl(),
    method: z.enum(PAYMENT_METHODS).optional(),
    webhook_url: httpUrl().optional(),
    provider_profile_id: requiredText(64).optional(),
    /**
     * Extension: the store's order this checkout pays (its `id` in the store). The payment is then
     * for that order: its amount must be the order's total, a paid payment marks the order paid in the
     * store, and an order with subscription products is paid with a `first` payment that starts them.
     */
    shop_order_id: z.number().int().positive().optional(),
  })
  .superRefine(
    (body, ctx) => {
      // A store checkout may total 0.00 (a free trial): the order decides whether that is allowed (checkout.ts).
      if (typeof body.amount === 'number' && (body.amount < 0 || (body.amount === 0 && body.shop_order_id === undefined))) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: 'The :attribute field must be greater than 0.' });
      }
    },
    { when: () => true },
  );

export type CreatePaymentInput = z.output<typeof createPaymentBody>;

/** docs/api.md, Payment: what a create answers. */
export const paymentResponse = z.object({
  id: z.string(),
  provider_payment_id: z.string(),
  status: z.enum(['open', 'pending']),
  provider_checkout_url: z.string(),
});

/** The read-one extension: the whole state of a payment. */
export const paymentDetailResponse = z.object({
  id: z.string(),
  provider_payment_id: z.string().nullable(),
  status: z.enum(PAYMENT_ROW_STATUSES),
  amount: z.string(),
  currency: z.string(),
  description: z.string(),
  method: z.string().nullable(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  failure_reason: z.string().nullable(),
  failure_code: z.string().nullable(),
  status_history: z.array(z.object({ status: z.enum(PAYMENT_ROW_STATUSES), changed_at: z.string() })),
  /** Events sent to the payment's webhook_url, one per status change, and how their delivery went. */
  webhook_deliveries: z.array(
    z.object({
      id: z.string(),
      event: z.string(),
      status: z.enum(['pending', 'delivered', 'dead']),
      attempts: z.number().int(),
      last_status_code: z.number().int().nullable(),
      last_error: z.string().nullable(),
      next_attempt_at: z.string().nullable(),
      delivered_at: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
});

export type PaymentResponse = z.infer<typeof paymentResponse>;
export type PaymentDetailResponse = z.infer<typeof paymentDetailResponse>;

/**
 * `GET /api/v2/methods` query: `first` for a checkout that must create a mandate (a cart with subscriptions), `oneoff`
 * (as without the parameter) for a plain payment.
 */
export const methodsQuery = z.object({
  sequence_type: z
    .enum(['first', 'oneoff'])
    .optional()
    .describe('`first`: only the methods whose payment creates a mandate, as a checkout that starts subscriptions needs'),
});

/** `GET /api/v2/methods` (extension): what a checkout may offer. */
export const methodsResponse = z.object({
  data: z
    .array(z.object({ id: z.enum(PAYMENT_METHODS) }))
    .describe("the spec's methods the account's provider offers, in the spec's order"),
});
export type MethodsResponse = z.input<typeof methodsResponse>;

/** One payment in `GET /api/v2/payments` (extension): what it is and how it stands, without its history. */
export const paymentListItem = z.object({
  id: z.string(),
  provider_payment_id: z.string().nullable(),
  status: z.enum(PAYMENT_ROW_STATUSES),
  sequence_type: z.string(),
  amount: z.string(),
  currency: z.string(),
  description: z.string(),
  method: z.string().nullable(),
  customer_id: z.string().nullable(),
  subscription_id: z.string().nullable(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  failure_reason: z.string().nullable(),
  failure_code: z.string().nullable(),
});

export type PaymentListItem = z.infer<typeof paymentListItem>;

/** `GET /api/v2/payments` (extension): the page query and its filters. */
export const paymentListQuery = listQueryWith({
  customer_id: idFilter('cus'),
  subscription_id: idFilter('sub'),
  status: statusFilter(PAYMENT_ROW_STATUSES),
});
