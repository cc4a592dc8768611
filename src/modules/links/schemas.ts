import { z } from 'zod';
import { customerResponse } from '../customers/schemas';
import { nestedSubscriptionResponse } from '../subscriptions/schemas';
import { LINK_STATUSES, LINK_TYPES } from './repository';


/** Spec 2.3. Fields a link of its type does not use are null (see README). */
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
