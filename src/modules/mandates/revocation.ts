import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { ProviderNotFoundError } from '../../providers/errors';
import { toDbDateTime } from '../../time';
import { customersRepository } from '../customers/repository';
import { enqueueMandateEvent } from './events';
import { madeByOurFirstPayment, otherBillersOf } from './otherBillers';
import { mandatesRepository, type MandateRow } from './repository';
import { mandateRevocationsRepository } from './revocationsRepository';
import { errorMessage } from '../../errors';

/**
 * Ending a mandate: at the provider first, then our record. The one way both `DELETE …/mandates/{id}`
 * and a takeover's clean-up (an old mandate nobody uses any more) revoke one. Revoking twice is
 * harmless: the provider's revoke of a revoked (or unknown) mandate changes nothing, and ours only
 * marks it, and tells `mandate.revoked`, the first time.
 */
export async function revokeMandate(ctx: AppContext, mandate: MandateRow): Promise<MandateRow> {
  const customer = await customersRepository.find(ctx.db, mandate.account_id, mandate.customer_id);
  if (customer?.provider_customer_id) {
    const provider = await ctx.providers.forAccount({ id: mandate.account_id });
    try {
      await provider.revokeMandate(customer.provider_customer_id, mandate.id);
    } catch (error) {
      // Unknown there: some providers drop a revoked mandate; it can be charged no more either way.
      if (!(error instanceof ProviderNotFoundError)) throw error;
    }
  }
  const now = toDbDateTime(ctx.clock.now());
  await ctx.db.transaction(async (trx) => {
    const marked = await mandatesRepository.markRevoked(trx, mandate, now);
    if (marked) await enqueueMandateEvent(trx, mandate, 'revoked', now);
    await mandateRevocationsRepository.markDone(trx, mandate, now, null);
  });
  ctx.logger.info('mandate revoked', { accountId: mandate.account_id, mandateId: mandate.id });
  const after = await mandatesRepository.findForCustomer(ctx.db, mandate.account_id, mandate.customer_id, mandate.id);
  return after ?? { ...mandate, status: 'invalid', revoked_at: mandate.revoked_at ?? now };
}

/**
 * Records, in the caller's transaction, that these mandates are to be revoked once it commits: the
 * ones of `candidates` that no subscription in use is charged on any more. The revocation itself
 * is an outside call, so it never runs inside the transaction (see revokeDueMandates).
 */
export async function scheduleRevocationOfUnused(
  trx: Knex.Transaction,
  accountId: string,
  candidates: readonly string[],
  now: string,
): Promise<string[]> {
  const due: string[] = [];
  for (const mandateId of new Set(candidates)) {
    const mandate = await mandatesRepository.find(trx, accountId, mandateId);
    if (!mandate || mandate.revoked_at !== null) continue;
    if ((await mandatesRepository.subscriptionsUsing(trx, accountId, mandateId)).length > 0) continue;
    await mandateRevocationsRepository.insertDue(
      trx,
      { account_id: accountId, mandate_id: mandateId, customer_id: mandate.customer_id },
      now,
    );
    due.push(mandateId);
  }
  return due;
}

/** Revocations recorded due that one run takes on; the rest wait for the next. */
const REVOCATIONS_PER_RUN = 100;

/**
 * Another biller charges the mandate (the provider's own subscriptions): it stays, its revocation row
 * is closed with a note, and the merchant hears `mandate.revocation_skipped` once, naming them.
 */
async function keepForOtherBillers(ctx: AppContext, mandate: MandateRow, billers: string[], now: string): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const note = `used at the provider by ${billers.join(', ')}: kept`.slice(0, 191);
    if (!(await mandateRevocationsRepository.markDone(trx, mandate, now, note))) return;
    await enqueueMandateEvent(trx, mandate, 'revocation_skipped', now, {
      reason: 'used_at_provider',
      provider_subscription_ids: billers,
    });
  });
  ctx.logger.info('mandate kept: another biller at the provider still uses it', {
    accountId: mandate.account_id,
    mandateId: mandate.id,
    billers: billers.length,
  });
}

/**
 * Revokes the mandates recorded as due, across accounts: right after the commit that recorded them,
 * and again from the refresh-mandates job for any a crash or a provider error left behind. A mandate
 * that a subscription uses again by now (moved back to it) is not revoked: its row is closed with a note.
 * Nor is one another biller may charge: a mandate a first payment of ours did not make (imported, found
 * at the provider) is revoked only when the provider lists no subscription of the customer charging it
 * (naming it, or naming none: those charge any valid mandate); otherwise it is kept (keepForOtherBillers).
 */
export async function revokeDueMandates(
  ctx: AppContext,
  limit = REVOCATIONS_PER_RUN,
): Promise<{ revoked: number; kept: number; failed: number }> {
  const result = { revoked: 0, kept: 0, failed: 0 };
  const now = toDbDateTime(ctx.clock.now());
  for (const due of await mandateRevocationsRepository.due(ctx.db, now, limit)) {
    const mandate = await mandatesRepository.find(ctx.db, due.account_id, due.mandate_id);
    try {
      if (!mandate) {
        await mandateRevocationsRepository.markDone(ctx.db, { id: due.mandate_id, account_id: due.account_id }, now, 'mandate not found');
      } else if ((await mandatesRepository.subscriptionsUsing(ctx.db, due.account_id, mandate.id)).length > 0) {
        await mandateRevocationsRepository.markDone(ctx.db, mandate, now, 'in use again: kept');
      } else {
        const billers = madeByOurFirstPayment(mandate) ? [] : await otherBillersOf(ctx, mandate);
        if (billers.length > 0) {
          await keepForOtherBillers(ctx, mandate, billers, now);
          result.kept += 1;
        } else {
          await revokeMandate(ctx, mandate);
          result.revoked += 1;
        }
      }
    } catch (error) {
      result.failed += 1;
      const message = errorMessage(error);
      await mandateRevocationsRepository.recordFailure(ctx.db, due, message.slice(0, 191));
      ctx.logger.warn('mandate revocation failed; tried again on a later run', {
        accountId: due.account_id,
        mandateId: due.mandate_id,
        error: message,
      });
    }
  }
  return result;
}

/**
 * After the transaction commits, revokes what it recorded due (in the background: the caller's
 * answer does not wait for the provider). A rollback revokes nothing; a crash before this runs
 * leaves the rows for the refresh-mandates job.
 */
export function revokeDueAfterCommit(ctx: AppContext, trx: Knex.Transaction): void {
  trx.executionPromise.then(
    () => ctx.background.run('revoke mandates no longer used', () => revokeDueMandates(ctx).then(() => undefined)),
    () => undefined,
  );
}
