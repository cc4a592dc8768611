import { z } from 'zod';
import { idFilter, listQueryWith, statusFilter } from '../../validation/listFilters';
import { customerResponse } from '../customers/schemas';
import { orderResponse } from '../orders/schemas';
import { nestedSubscriptionResponse } from '../subscriptions/schemas';
import { FOLLOW_UP_STATUSES, FOLLOW_UP_TYPES } from './repository';

/** docs/api.md, Follow-up. Provider and failure fields are null until known; nested objects are null when not related. */
export const followUpResponse = z.object({
  id: z.string(),
  description: z.string(),
  type: z.enum(FOLLOW_UP_TYPES),
  status: z.enum(FOLLOW_UP_STATUSES),
  amount: z.string(),
  currency: z.string(),
  created_at: z.string().describe('Y-m-d H:i:s in APP_TIMEZONE'),
  provider_profile_id: z.string().nullable(),
  provider_payment_id: z.string().nullable(),
  reason: z.string().nullable().describe('human-readable reason of failure'),
  reason_code: z.string().nullable().describe('short reason code, e.g. AM04'),
  retries_done: z.number().int(),
  mails_sent: z.number().int(),
  next_retry_at: z.string().nullable().describe('Y-m-d'),
  customer: customerResponse.nullable(),
  subscription: nestedSubscriptionResponse.nullable(),
  order: orderResponse.nullable(),
});

export type FollowUpResponse = z.infer<typeof followUpResponse>;

/** `PUT /api/v2/follow-ups/{id}`: the merchant settles a pending follow-up by hand. */
export const updateFollowUpBody = z
  .object({ status: z.enum(['solved', 'failed']).describe('set by hand: solved (paid elsewhere) or failed (written off)') })
  .strict();

/** `GET /api/v2/follow-ups`: the page query and its filters (extensions). */
export const followUpListQuery = listQueryWith({ status: statusFilter(FOLLOW_UP_STATUSES), subscription_id: idFilter('sub') });
