import type { AppContext } from '../../context';
import { adapterOfAccount } from '../../providers';
import type { PaymentExpiry } from '../../providers/adapter';
import { msAfter, msBefore, toDbDateTime } from '../../time';
import { accountsRepository } from '../accounts/repository';
import { paymentsRepository, type PaymentRow } from './repository';
import { markReconciled, reconcileAgainAt, type GivenUpCall } from './webhookCalls';
import { syncPaymentFromProvider } from './service';
import { errorMessage } from '../../errors';

const MINUTE = 60_000;

/** Past the expiry, the provider's own webhook for it gets one job interval to arrive first. */
export const EXPIRY_MARGIN = 10 * MINUTE;

/**
 * A payment fetched without news is left alone this long. There is no last-checked column: a fetch
 * that changes nothing moves updated_at (which the API does not show), so "not touched for this
 * long" covers both a fetch and a status change by a webhook. Kept below the shortest expiry plus
 * the margin (25 minutes), so it never delays the first fetch of a payment untouched since creation.
 */
export const RECHECK_AFTER = 20 * MINUTE;

/** Statuses the provider can still move on its own. */
const UNSETTLED_STATUSES = ['open', 'pending', 'authorized'] as const;

export type PaymentDueForReconciliation = Pick<PaymentRow, 'id' | 'account_id' | 'status' | 'method' | 'created_at' | 'updated_at'> & {
  provider_payment_id: string;
};

/**
 * The created_at cut-offs: so long ago that the method's expiry at the account's provider (see its
 * adapter's paymentExpiry) plus the margin has passed; methods grouped by expiry, so the query has one
 * condition per distinct expiry.
 */
function expiryCutOffs(now: Date, expiry: PaymentExpiry) {
  const createdBefore = (after: number) => toDbDateTime(msBefore(now, after + EXPIRY_MARGIN));
  const knownMethods = Object.keys(expiry.byMethod);
  const methodsByExpiry = [...new Set(Object.values(expiry.byMethod))].map((after) => ({
    after,
    methods: knownMethods.filter((method) => expiry.byMethod[method] === after),
  }));
  return {
    byMethods: methodsByExpiry.map(({ after, methods }) => ({ methods, createdBefore: createdBefore(after) })),
    // No method yet (the payer picks one on the checkout page) or one the provider lists no expiry for.
    otherMethods: { known: knownMethods, createdBefore: createdBefore(expiry.otherwise) },
  };
}

/** The payment expiry of the account's provider; null when no provider serves it (nothing could be fetched then). */
async function expiryAtProviderOf(ctx: AppContext, accountId: string): Promise<PaymentExpiry | null> {
  try {
    return adapterOfAccount(await accountsRepository.providerSettings(ctx.db, accountId), ctx.config)?.paymentExpiry ?? null;
  } catch (error) {
    ctx.logger.warn('reconciliation passes over an account whose provider is not known', {
      accountId,
      error: errorMessage(error),
    });
    return null;
  }
}

/**
 * Up to `limit` payments, over all accounts, that are still unsettled past their method's expiry
 * and were not touched for RECHECK_AFTER; the longest untouched first, so a payment that stays
 * pending goes to the back of the queue after each fetch and cannot starve the others.
 *
 * One query per account: the only index on status is (account_id, status), which a query on status
 * alone cannot use (MariaDB has no skip scan) and would scan every payment ever made; per account,
 * it reads just the unsettled rows. Accounts are few (one per shop), payments many.
 */
export async function paymentsDueForReconciliation(ctx: AppContext, limit: number): Promise<PaymentDueForReconciliation[]> {
  const now = ctx.clock.now();
  const untouchedSince = toDbDateTime(msBefore(now, RECHECK_AFTER));
  const accounts = await accountsRepository.allIds(ctx.db);
  const due: PaymentDueForReconciliation[] = [];
  for (const accountId of accounts) {
    const expiry = await expiryAtProviderOf(ctx, accountId);
    if (!expiry) continue;
    const rows = (await paymentsRepository.unsettledPastExpiry(ctx.db, accountId, {
      statuses: UNSETTLED_STATUSES,
      untouchedSince,
      pastCutOff: expiryCutOffs(now, expiry),
      limit,
    })) as PaymentDueForReconciliation[];
    due.push(...rows);
  }
  // Stored times are fixed-width UTC strings: they sort as text.
  return due.sort((a, b) => a.updated_at.localeCompare(b.updated_at) || a.created_at.localeCompare(b.created_at)).slice(0, limit);
}

/**
 * Asks the provider about one payment and applies what it says (forward-only, recorded in the
 * status history, see syncPaymentFromProvider). When nothing changed, or the provider could not be
 * asked, updated_at moves to now so the next runs leave the payment alone for RECHECK_AFTER.
 */
export async function reconcilePayment(ctx: AppContext, payment: PaymentDueForReconciliation): Promise<PaymentRow | null> {
  const touch = () =>
    paymentsRepository.updateStatusIfUnchanged(ctx.db, payment.account_id, payment.id, payment.status, {
      updated_at: toDbDateTime(ctx.clock.now()),
    });
  let synced: PaymentRow | null;
  try {
    synced = await syncPaymentFromProvider(ctx, payment.account_id, payment.provider_payment_id);
  } catch (error) {
    await touch();
    throw error;
  }
  if (synced?.status === payment.status) await touch();
  return synced;
}

/**
 * A provider webhook call given up after 26 hours (the provider unreachable all that time) named a
 * payment whose news never got here — a refund or chargeback of a paid payment too, which the sweep
 * of unsettled payments above never looks at. The payment is fetched and applied whatever its status
 * here, and the calls are marked reconciled; a failed fetch is tried again after RECHECK_AFTER.
 */
export async function reconcileGivenUpCall(ctx: AppContext, call: GivenUpCall): Promise<void> {
  try {
    await syncPaymentFromProvider(ctx, call.account_id, call.resource_id);
  } catch (error) {
    await reconcileAgainAt(ctx, call, msAfter(ctx.clock.now(), RECHECK_AFTER));
    throw error;
  }
  await markReconciled(ctx, call);
}
