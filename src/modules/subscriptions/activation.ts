import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { newId } from '../../ids';
import { todayIn, toDbDateTime } from '../../time';
import { daysAfter } from '../../time/calendar';
import { planSubscription } from './planning';
import { pausesRepository } from './pausesRepository';
import { planOf } from './plan';
import { subscriptionsRepository, type SubscriptionRow, type SubscriptionRuleRow } from './repository';
import { scheduledCharge } from './schedule';

/**
 * A draft subscription whose mandate is now valid becomes `active`. Its first charge is the first
 * scheduled charge dated on or after today (APP_TIMEZONE), never a burst of every period since its
 * start: the charges dated earlier passed while it waited and are skipped — not made up, and counted
 * against `times`, as a pause's are. The wait is kept as a pause period (from the first charge not
 * made to today, exclusive), so planning writes those charges as `skipped` rows now, and billing,
 * charging and resuming all read the same schedule later. False when it was no longer a draft.
 */
export async function activateDraft(ctx: AppContext, draft: SubscriptionRow): Promise<boolean> {
  const today = todayIn(ctx);
  const stamp = toDbDateTime(ctx.clock.now());
  const rules = await subscriptionsRepository.rulesOf(ctx.db, draft.account_id, [draft.id]);
  const activated = await ctx.db.transaction((trx) => activateDraftIn(trx, draft, rules, today, stamp));
  if (!activated) return false;
  // Through yesterday: the waited-out charges become `skipped` rows and next_* move to the first
  // charge on or after today. Should this not run (a crash), the next billing run does the same.
  const { skipped } = await planSubscription(ctx, { ...draft, status: 'active' }, rules, daysAfter(today, -1));
  ctx.logger.info('draft subscription activated: its mandate is valid', { accountId: draft.account_id, subscriptionId: draft.id, skipped });
  return true;
}

/**
 * The draft becomes active in the caller's transaction, its wait kept as a pause period (see
 * activateDraft); the waited-out charges are written `skipped` by the next planning. False when it
 * was no longer a draft.
 */
export async function activateDraftIn(
  trx: Knex.Transaction,
  draft: SubscriptionRow,
  rules: SubscriptionRuleRow[],
  today: string,
  stamp: string,
): Promise<boolean> {
  const waitedFrom = scheduledCharge(planOf(draft, rules), draft.next_charge_number)?.date ?? null;
  // Conditional: a cancellation (or a second activation) that came first wins.
  const moved = await subscriptionsRepository.updateIfUnchanged(
    trx,
    { ...draft, status: 'draft' },
    { status: 'active', updated_at: stamp },
  );
  if (!moved) return false;
  if (waitedFrom !== null && waitedFrom < today) {
    await pausesRepository.insert(trx, {
      id: newId('pau'),
      account_id: draft.account_id,
      subscription_id: draft.id,
      from_date: waitedFrom,
      until_date: today,
      created_at: stamp,
    });
  }
  return true;
}

/**
 * Wired at start (bootstrap.ts): a mandate found valid activates the drafts on it, after the takeovers that
 * waited for it moved theirs (the `drafts` phase of MANDATE_VALID_PHASES); the refresh reports how many.
 */
export function registerDraftActivation(ctx: AppContext): void {
  ctx.mandateValid.on('drafts', (mandate) => activateDraftsOn(ctx, mandate));
}

/** Activates every draft subscription on a mandate that is now valid; answers how many became active. */
export async function activateDraftsOn(ctx: AppContext, mandate: { id: string; account_id: string }): Promise<number> {
  const drafts = await subscriptionsRepository.draftsOnMandate(ctx.db, mandate.account_id, mandate.id);
  let activated = 0;
  for (const draft of drafts) if (await activateDraft(ctx, draft)) activated += 1;
  return activated;
}
