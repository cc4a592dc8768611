import type { Knex } from 'knex';
import { accountsRepository } from '../accounts/repository';
import type { FollowUpType, OnFailureAction } from './repository';

/** How an account follows up failed payments (`cli accounts set-follow-ups`). */
export interface FollowUpSettings {
  type: FollowUpType;
  maxRetries: number; // 1..3
  retryDays: number;
  onFailure: OnFailureAction;
}

export const DEFAULT_FOLLOW_UP_SETTINGS: FollowUpSettings = { type: 'both', maxRetries: 3, retryDays: 3, onFailure: 'pause' };

export async function followUpSettingsOf(db: Knex, accountId: string): Promise<FollowUpSettings> {
  const row = await accountsRepository.followUpSettings(db, accountId);
  if (!row) return DEFAULT_FOLLOW_UP_SETTINGS;
  return {
    type: row.follow_up_type,
    maxRetries: row.follow_up_max_retries,
    retryDays: row.follow_up_retry_days,
    onFailure: row.follow_up_on_failure,
  };
}

export async function setFollowUpSettings(db: Knex, accountId: string, settings: FollowUpSettings, now: string): Promise<void> {
  await accountsRepository.setFollowUpSettings(db, accountId, {
    follow_up_type: settings.type,
    follow_up_max_retries: settings.maxRetries,
    follow_up_retry_days: settings.retryDays,
    follow_up_on_failure: settings.onFailure,
    updated_at: now,
  });
}
