import { tenantTable } from '../../db/tenantTable';

export const FOLLOW_UP_TYPES = ['retry', 'link', 'both'] as const;
export type FollowUpType = (typeof FOLLOW_UP_TYPES)[number];

export const FOLLOW_UP_STATUSES = ['pending', 'solved', 'failed'] as const;
export type FollowUpStatus = (typeof FOLLOW_UP_STATUSES)[number];

export interface FollowUpRow {
  id: string;
  account_id: string;
  customer_id: string | null;
  subscription_id: string | null;
  order_id: string | null;
  payment_id: string | null;
  type: FollowUpType;
  status: FollowUpStatus;
  description: string;
  amount: number; // cents
  currency: string;
  provider_profile_id: string | null;
  provider_payment_id: string | null;
  reason: string | null;
  reason_code: string | null;
  retries_done: number;
  mails_sent: number;
  next_retry_at: string | null; // Y-m-d
  created_at: string;
  updated_at: string;
}

export const followUpsRepository = tenantTable<FollowUpRow>('follow_ups');
