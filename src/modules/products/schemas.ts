import { z } from 'zod';
import { amountInCents, intervalUnit, percentageInBasisPoints, positiveInteger, requiredEnum, requiredText } from '../../validation/fields';
import { INTERVAL_UNITS } from '../../time/calendar';
import { PRODUCT_TYPES } from './repository';

const REQUIRED_FOR_SUBSCRIPTION = 'The :attribute field is required when type is subscription.';
const PROHIBITED_UNLESS_SUBSCRIPTION = 'The :attribute field is prohibited unless type is subscription.';

export const createProductBody = z
  .object({
    type: requiredEnum(PRODUCT_TYPES),
    name: requiredText(),
    amount: amountInCents('nonNegative').describe('> 0; 0 is allowed for shipping_costs'),
    vat: percentageInBasisPoints().describe('VAT percentage, 0..100'),
    interval: intervalUnit().nullable().optional().describe('required when type is subscription, else absent or null'),
    interval_value: positiveInteger().nullable().optional().describe('required when type is subscription, else absent or null'),
    times: positiveInteger().nullable().optional().describe('number of payments; null or absent: unlimited'),
    shop_platform_product_id: positiveInteger().nullable().optional(),
  })
  // Runs even when single fields failed, so every broken rule is reported at once; hence the
  // values are compared, never assumed to be parsed.
  .superRefine(
    (body, ctx) => {
      const isSubscription = body.type === 'subscription';
      const isOtherType = body.type === 'once' || body.type === 'shipping_costs';
      for (const field of ['interval', 'interval_value'] as const) {
        const given = body[field] !== undefined && body[field] !== null;
        if (isSubscription && !given) ctx.addIssue({ code: 'custom', path: [field], message: REQUIRED_FOR_SUBSCRIPTION });
        if (isOtherType && given) ctx.addIssue({ code: 'custom', path: [field], message: PROHIBITED_UNLESS_SUBSCRIPTION });
      }
      if (body.amount === 0 && (body.type === 'once' || body.type === 'subscription')) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: 'The :attribute field must be greater than 0.' });
      }
    },
    { when: () => true },
  );

export type CreateProductInput = z.output<typeof createProductBody>;

/** docs/api.md, Product: no vat and no interval_value in responses. */
export const productResponse = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(PRODUCT_TYPES),
  amount: z.string(),
  currency: z.string(),
  interval: z.enum(INTERVAL_UNITS).nullable(),
  times: z.number().int().nullable().describe('null: unlimited'),
  shop_product_id: z.number().int().nullable(),
});

export type ProductResponse = z.infer<typeof productResponse>;
