import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { ConflictError } from '../../errors';
import { newId } from '../../ids';
import { enqueueStoreSubscriptionEvent } from '../../events/storeEvents';
import { formatDate, formatNullableDate } from '../../time';
import { daysAfter } from '../../time/calendar';
import { chargesRepository } from './chargesRepository';
import { enqueueSubscriptionEvent } from './events';
import { change, refuse, viaOf, withRetry, type ChangeOrigin } from './lifecycle';
import { pausesRepository } from './pausesRepository';
import { planOf } from './plan';
import { subscriptionsRepository, type SubscriptionRow } from './repository';
import { nextCharged } from './schedule';

const FAILED = 'Could not skip the next charge';

/**
 * `POST /api/v2/subscriptions/{id}/skip` (extension): the next charge not made yet is never made —
 * now or later — and takes its place in the schedule like a paused charge, so it counts against
 * `times`. Each call skips one more period. The skip is kept as a one-day pause of kind 'skip' on
 * the charge's date, which billing, the next-charge date and resume all read as they read pauses.
 */
export function skipNextCharge(
  ctx: AppContext,
  account: Account,
  subscriptionId: string,
  origin: ChangeOrigin & { expectedDate?: string } = {},
): Promise<SubscriptionRow> {
  return withRetry(ctx, account, subscriptionId, async (row) => {
    if (row.status !== 'active') refuse(FAILED, 'status', `A subscription that is ${row.status} has no charge to skip.`);
    return change(
      ctx,
      row,
      async (trx, stamp) => {
        const date = await skipInTransaction(trx, row, stamp);
        // A form sent twice (a double click) must not skip a second period: it names the charge it skips.
        if (origin.expectedDate !== undefined && origin.expectedDate !== date)
          throw new ConflictError('The charge shown is no longer the next one; nothing was skipped', 'next_charge_changed');
        await pausesRepository.insert(trx, {
          id: newId('pau'),
          account_id: row.account_id,
          subscription_id: row.id,
          from_date: date,
          until_date: daysAfter(date, 1),
          kind: 'skip',
          created_at: stamp,
        });
        await enqueueSubscriptionEvent(trx, row, 'skipped', stamp, { skipped_date: date, ...viaOf(origin) });
        await enqueueStoreSubscriptionEvent(trx, row, 'skipped', stamp, { skipped_date: date, ...viaOf(origin) });
        return {};
      },
      origin,
    );
  });
}

/**
 * Which charge is skipped, and its date. A charge already planned and still due (billing wrote it,
 * a late one waiting) comes first: it is marked skipped only if nothing was started to make it;
 * one that a run holds or tried is refused, never half skipped. Else the next charge the schedule
 * would make; none (the plan has run its times, or ends before it) is refused.
 */
async function skipInTransaction(trx: Knex.Transaction, row: SubscriptionRow, stamp: string): Promise<string> {
  const planned = await chargesRepository.firstDueOf(trx, row);
  if (planned) {
    const skipped = await chargesRepository.skipUntouched(trx, planned, stamp);
    if (!skipped)
      throw new ConflictError('The next charge of this subscription is being made and can no longer be skipped', 'charge_in_progress');
    return formatDate(planned.due_date);
  }
  const rules = await subscriptionsRepository.rulesOf(trx, row.account_id, [row.id]);
  const pauses = await pausesRepository.periodsOf(trx, row.account_id, row.id);
  const next = nextCharged(planOf(row, rules), row.next_charge_number, pauses, formatNullableDate(row.cancel_at));
  if (!next) refuse(FAILED, 'status', 'This subscription has no next charge to skip.');
  return next.date;
}
