import { z } from 'zod';

/** `GET /api/v2/subscription-summary` (extension): the figures of the store's dashboard widget. */
export const subscriptionSummaryResponse = z.object({
  active_subscriptions: z.number().int(),
  paused_subscriptions: z.number().int(),
  monthly_recurring_revenue: z
    .string()
    .describe("active subscriptions' current amount per month: month/n, year/(12n), week×52/(12n), day×365/(12n), rounded half up once"),
  currency: z.string(),
  open_follow_ups: z.number().int().describe('follow-ups still pending'),
});
export type SubscriptionSummaryResponse = z.infer<typeof subscriptionSummaryResponse>;
