import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { newId } from '../../ids';
import { daysAfter } from '../../time/calendar';
import { todayIn, toDbDateTime } from '../../time';
import { enqueueFollowUpEvent } from './events';
import { followUpsRepository, type FollowUpKind, type FollowUpRow, type FollowUpStage } from './repository';
import { followUpTypeOf, nextStep } from './policy';
import { followUpSettingsOf, type FollowUpSettings } from './settings';

export interface FollowUpInput {
  kind: FollowUpKind;
  /** The payment (or, for a charge never made, the charge) the follow-up is about: one follow-up each. */
  originId: string;
  accountId: string;
  customerId: string | null;
  subscriptionId: string | null;
  orderId?: string | null;
  paymentId: string | null;
  providerPaymentId: string | null;
  amount: number; // cents
  currency: string;
  description: string;
  providerProfileId: string | null;
  reason: string | null;
  reasonCode: string | null;
}

/** The first step and when it is due, as the policy (policy.ts) has it for a follow-up just opened. */
export function firstStep(
  input: Pick<FollowUpInput, 'kind' | 'reasonCode'>,
  settings: FollowUpSettings,
  today: string,
): { stage: FollowUpStage; at: string | null } {
  const step = nextStep({ moment: 'opened', kind: input.kind, reasonCode: input.reasonCode, retriesDone: 0 }, settings);
  if (step.stage === 'retry' || step.stage === 'link') return { stage: step.stage, at: daysAfter(today, step.inDays) };
  if (step.stage === 'refund') return { stage: 'refund', at: null };
  throw new Error('a follow-up is never given up as it opens');
}

/**
 * Opens a follow-up, inside the transaction that records what went wrong (the payment's status
 * change, or the charge that could not be made). Its origin key is unique, so a repeated webhook
 * or a second instance never opens a second one. Answers null when it already existed.
 */
export async function openFollowUp(ctx: AppContext, trx: Knex.Transaction, input: FollowUpInput): Promise<FollowUpRow | null> {
  const originKey = `${input.kind}-${input.originId}`;
  const existing = await followUpsRepository.findByOriginKey(trx, input.accountId, originKey);
  if (existing) return null;
  const settings = await followUpSettingsOf(trx, input.accountId);
  const today = todayIn(ctx);
  const step = firstStep(input, settings, today);
  const now = toDbDateTime(ctx.clock.now());
  const row: FollowUpRow = {
    id: newId('fu'),
    account_id: input.accountId,
    customer_id: input.customerId,
    subscription_id: input.subscriptionId,
    order_id: input.orderId ?? null,
    payment_id: input.paymentId,
    type: followUpTypeOf(input.kind, settings, input.reasonCode),
    status: 'pending',
    description: input.description.slice(0, 191),
    amount: input.amount,
    currency: input.currency,
    provider_profile_id: input.providerProfileId,
    provider_payment_id: input.providerPaymentId,
    reason: input.reason?.slice(0, 191) ?? null,
    reason_code: input.reasonCode?.slice(0, 32) ?? null,
    retries_done: 0,
    mails_sent: 0,
    next_retry_at: step.at,
    kind: input.kind,
    origin_key: originKey,
    stage: step.stage,
    link_id: null,
    resolved_at: null,
    created_at: now,
    updated_at: now,
  };
  // The unique origin key decides a race between two transactions; the loser's insert fails and
  // rolls its status change back, which is then retried and finds this follow-up.
  await followUpsRepository.insert(trx, row);
  await enqueueFollowUpEvent(trx, row, 'created', now);
  ctx.logger.info('follow-up opened', {
    accountId: row.account_id,
    followUpId: row.id,
    kind: row.kind,
    stage: row.stage,
    reasonCode: row.reason_code,
  });
  return row;
}
