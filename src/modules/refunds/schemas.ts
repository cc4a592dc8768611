import { z } from 'zod';
import { amountInCents, requiredText } from '../../validation/fields';
import { REFUND_STATUSES } from '../../providers/types';

/** `POST /api/v2/payments/{id}/refunds` (extension). */
export const createRefundBody = z.object({
  amount: amountInCents('positive').optional().describe('euros, greater than 0; none: all that is left to refund'),
  description: requiredText(191).optional().describe("what the payer's bank statement says; none: 'Refund of <payment description>'"),
  reference: requiredText(191)
    .optional()
    .describe('your own reference of this refund, unique per account: asked again with it (at any time), the first refund answers'),
});
export type CreateRefundInput = z.output<typeof createRefundBody>;

export const refundParams = z.object({ id: z.string(), refund_id: z.string() });

export const refundResponse = z.object({
  id: z.string(),
  payment_id: z.string(),
  provider_refund_id: z.string().nullable(),
  status: z
    .enum(['creating', ...REFUND_STATUSES])
    .describe('`creating` until the provider confirmed it; `failed`/`canceled` gave the amount back'),
  amount: z.string(),
  currency: z.string(),
  description: z.string(),
  failure_reason: z.string().nullable(),
  reference: z.string().nullable().describe('the reference the refund was asked with'),
  origin_key: z
    .string()
    .nullable()
    .describe(
      'what the service refunded by itself: `double-<payment id>`, or `external-refund-<provider refund id>` for one made at the provider',
    ),
  created_at: z.string(),
});
export type RefundResponse = z.input<typeof refundResponse>;

export const refundListResponse = z.object({ data: z.array(refundResponse) });
