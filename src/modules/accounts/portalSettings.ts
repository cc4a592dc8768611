import type { Knex } from 'knex';
import { accountsRepository } from './repository';
import { AccountError } from './service';

/** What a customer can do in the self-service portal, each allowed or not per account. */
export const PORTAL_ACTIONS = ['pause', 'skip', 'cancel', 'change-method'] as const;
export type PortalAction = (typeof PORTAL_ACTIONS)[number];

/** About three months: long enough for a holiday, short enough that the subscription is not forgotten. */
export const DEFAULT_MAX_PAUSE_DAYS = 92;
export const MAX_PAUSE_DAYS_LIMIT = 366;

export interface PortalSettings {
  allowed: ReadonlySet<PortalAction>;
  maxPauseDays: number;
}

export const isPortalAction = (value: string): value is PortalAction => (PORTAL_ACTIONS as readonly string[]).includes(value);

/** The stored list (comma-separated; null: all, the default; empty: none) as a set; unknown words are ignored. */
export function allowedActionsOf(stored: string | null): ReadonlySet<PortalAction> {
  if (stored === null) return new Set(PORTAL_ACTIONS);
  return new Set(stored.split(',').filter(isPortalAction));
}

/** The stored form of a set of actions, in PORTAL_ACTIONS order; null when all are allowed (the default). */
export function storedAllowedActions(allowed: ReadonlySet<PortalAction>): string | null {
  return PORTAL_ACTIONS.every((action) => allowed.has(action)) ? null : PORTAL_ACTIONS.filter((action) => allowed.has(action)).join(',');
}

export async function portalSettingsOf(db: Knex, accountId: string): Promise<PortalSettings> {
  const row = await accountsRepository.portalSettingsOf(db, accountId);
  if (!row) throw new AccountError(`No account with id ${accountId}`);
  return {
    allowed: allowedActionsOf(row.portal_allowed_actions),
    maxPauseDays: row.portal_max_pause_days === null ? DEFAULT_MAX_PAUSE_DAYS : Number(row.portal_max_pause_days),
  };
}
