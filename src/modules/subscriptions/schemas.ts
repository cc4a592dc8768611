import { z } from 'zod';
import { STORE_SUBSCRIPTIONS_IMPORT } from '../../integrations';
import { customerResponse } from '../customers/schemas';
import { IMPORT_SOURCES } from './sourceNames';
import { SUBSCRIPTION_STATUSES } from './repository';

export const subscriptionRuleResponse = z.object({
  id: z.string(),
  amount: z.string(),
  currency: z.string(),
  interval: z.string(),
  interval_amount: z.number().int(),
  day: z.number().int(),
  times_done: z.number().int(),
  times: z.number().int().nullable().describe('null: until cancelled'),
});

/** docs/api.md, Subscription, without the nested customer: how a subscription appears inside another resource. */
export const nestedSubscriptionResponse = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  start_date: z.string(),
  created_at: z.string(),
  provider_mandate_id: z.string(),
  provider_profile_id: z.string(),
  next_payment_at: z.string().nullable(),
  next_amount: z.string().nullable(),
  last_payment_created_at: z.string().nullable(),
  resume_at: z.string().nullable(),
  cancel_at: z.string().nullable(),
  shop_subscription_id: z
    .number()
    .int()
    .optional()
    .describe(`${STORE_SUBSCRIPTIONS_IMPORT.extensionName}' subscription this one bills (the store's id); absent when none`),
  source: z
    .enum(IMPORT_SOURCES)
    .optional()
    .describe('where an imported subscription came from (POST /api/v2/imports); absent when it was made here'),
  source_id: z.string().optional().describe("the source's own id of it (CSV: the mandate reference); absent when made here"),
  rules: z.array(subscriptionRuleResponse),
});

/** docs/api.md, Subscription: a subscription with its rules and its customer. */
export const subscriptionResponse = nestedSubscriptionResponse.extend({ customer: customerResponse });

export type SubscriptionRuleResponse = z.infer<typeof subscriptionRuleResponse>;
export type NestedSubscriptionResponse = z.infer<typeof nestedSubscriptionResponse>;
export type SubscriptionResponse = z.infer<typeof subscriptionResponse>;
