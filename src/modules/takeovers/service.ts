import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { NotFoundError, ValidationError } from '../../errors';
import type { Cents } from '../../money';
import { todayIn, toDbDateTime } from '../../time';
import { daysAfter } from '../../time/calendar';
import { enqueueStoreSubscriptionEvent } from '../../events/storeEvents';
import { customersRepository } from '../customers/repository';
import { paymentLinksRepository, type PaymentLinkRow } from '../links/repository';
import { followUpLinkRow } from '../links/service';
import { activateDraftIn } from '../subscriptions/activation';
import { enqueueSubscriptionUpdated } from '../subscriptions/events';
import { subscriptionsRepository, type SubscriptionStatus } from '../subscriptions/repository';
import { mandatesRepository, type MandateRow } from '../mandates/repository';
import { revokeDueAfterCommit, scheduleRevocationOfUnused } from '../mandates/revocation';
import type { PaymentRow } from '../payments/repository';
import { confirmMethodChanged } from './confirmation';
import { mandateTakeoversRepository, subscriptionIdsOf, waitingTakeoversRepository, type TakeoverRequester } from './repository';

/**
 * A new mandate takes over: a `mandate` link whose paid first payment makes a mandate that the
 * customer's subscriptions (the chosen ones, or all in use) are charged on from then on, and the old
 * mandate(s) nobody uses any more are revoked. The portal's "change payment method", a follow-up for
 * a dead mandate and (when the merchant allows it) a new store checkout all go this way.
 *
 * A module of its own above mandates, subscriptions and links, which it moves between: they learn of
 * it through the hooks it registers (registerTakeovers), the paid link's and the valid mandate's.
 */

/**
 * Wired at start (bootstrap.ts): a paid `mandate` link is fulfilled by its takeover, in the settle
 * transaction (links' fulfilment, LinkFulfilmentHooks); a mandate found valid first moves the takeovers
 * that waited for it, before its drafts become active (the `takeovers` phase of MANDATE_VALID_PHASES).
 */
export function registerTakeovers(ctx: AppContext): void {
  ctx.linkFulfilments.on('mandate', async (trx, link, payment) => {
    await takeOver(ctx, trx, link, payment);
  });
  ctx.mandateValid.on('takeovers', (mandate) => moveWaitingTakeovers(ctx, mandate));
}

/** The first payment only proves the account or card is the payer's: one cent unless told otherwise. */
export const TAKEOVER_FIRST_AMOUNT: Cents = 1;
/** How long a takeover link can be paid. */
export const TAKEOVER_LINK_DAYS = 14;
/** Subscriptions charged on their mandate now or later: the ones a new mandate can take over. */
const TAKEN_OVER: readonly SubscriptionStatus[] = ['draft', 'active', 'paused'];

export interface TakeoverLinkInput {
  customerId: string;
  /** null: every subscription of the customer in use when the link is paid. */
  subscriptionIds: string[] | null;
  amountCents: Cents;
  currency: string;
  description: string;
  redirectUrl: string | null;
  expiresAt: string;
  /** Who asked for it: `portal` confirms the change to the customer by mail once it is paid. */
  requestedVia?: TakeoverRequester;
}

/**
 * A takeover link (type `mandate`, a `first` payment of `amountCents`) and what it takes over, in the
 * caller's transaction: a follow-up records it with its own step change.
 */
export async function insertTakeoverLink(
  trx: Knex.Transaction,
  accountId: string,
  input: TakeoverLinkInput,
  now: string,
  linkId?: string,
): Promise<PaymentLinkRow> {
  const made = followUpLinkRow(
    { id: accountId },
    {
      customerId: input.customerId,
      amount: input.amountCents,
      currency: input.currency,
      description: input.description,
      expiresAt: input.expiresAt,
    },
    now,
  );
  const base = linkId === undefined ? made : { ...made, id: linkId };
  const link: PaymentLinkRow = { ...base, type: 'mandate', first_amount: input.amountCents, redirect_url_paid: input.redirectUrl };
  await paymentLinksRepository.insert(trx, link);
  await mandateTakeoversRepository.insert(trx, {
    link_id: link.id,
    account_id: accountId,
    customer_id: input.customerId,
    subscription_ids: input.subscriptionIds === null ? null : JSON.stringify([...new Set(input.subscriptionIds)]),
    new_mandate_id: null,
    taken_over_at: null,
    ...(input.requestedVia ? { requested_via: input.requestedVia } : {}),
    created_at: now,
  });
  return link;
}

export interface MandateTakeoverRequest {
  customerId: string;
  /** null: every active (or paused, or draft) subscription of the customer. */
  subscriptionIds: string[] | null;
  /** The first payment; null: 0.01. */
  amountCents: number | null;
  description: string;
  redirectUrl: string | null;
  /** The pay page speaks the customer's locale (or the browser's); kept for callers, not stored. */
  locale: string | null;
  requestedVia?: TakeoverRequester;
}

/**
 * Starts a takeover for one customer of the account: a link whose page (`/pay/{id}`) takes the
 * first payment; paying it moves the subscriptions to the new mandate (fulfilment, see takeOver).
 * Another account's customer or subscription is not found (404).
 */
export async function startMandateTakeover(
  ctx: AppContext,
  account: Account,
  input: MandateTakeoverRequest,
): Promise<{ linkId: string; url: string }> {
  const customer = await customersRepository.find(ctx.db, account.id, input.customerId);
  if (!customer) throw new NotFoundError('Customer');
  for (const id of input.subscriptionIds ?? []) {
    const subscription = await subscriptionsRepository.find(ctx.db, account.id, id);
    if (!subscription || subscription.customer_id !== customer.id) throw new NotFoundError('Subscription');
  }
  const amount = input.amountCents ?? TAKEOVER_FIRST_AMOUNT;
  if (!Number.isInteger(amount) || amount < TAKEOVER_FIRST_AMOUNT) {
    throw ValidationError.field('Could not start the mandate takeover', 'amount', 'The amount must be at least 0.01.');
  }
  const now = toDbDateTime(ctx.clock.now());
  const link = await ctx.db.transaction((trx) =>
    insertTakeoverLink(
      trx,
      account.id,
      {
        customerId: customer.id,
        subscriptionIds: input.subscriptionIds,
        amountCents: amount,
        currency: 'EUR',
        description: input.description,
        redirectUrl: input.redirectUrl,
        expiresAt: daysAfter(todayIn(ctx), TAKEOVER_LINK_DAYS),
        requestedVia: input.requestedVia,
      },
      now,
    ),
  );
  ctx.logger.info('mandate takeover started', { accountId: account.id, linkId: link.id, customerId: customer.id });
  return { linkId: link.id, url: `${ctx.config.publicUrl}/pay/${link.id}` };
}

/** What a takeover reads of the link's paid payment: who paid, on which mandate. */
export type TakeoverPayment = Pick<PaymentRow, 'id' | 'customer_id' | 'provider_mandate_id'>;

/**
 * The paid link's new mandate takes over, in the settle transaction: each chosen subscription of the
 * customer still in use moves to it (`subscription.updated`), a draft becomes active when the mandate
 * is valid, and the old mandates left unused are recorded due for revocation, revoked after the
 * commit. Once per link (the takeover row is claimed); a link without a takeover changes nothing.
 */
async function takeOver(ctx: AppContext, trx: Knex.Transaction, link: PaymentLinkRow, payment: TakeoverPayment): Promise<number> {
  const takeover = await mandateTakeoversRepository.find(trx, link.account_id, link.id);
  if (!takeover) return 0;
  const mandate =
    payment.provider_mandate_id && payment.customer_id === takeover.customer_id
      ? await mandatesRepository.findForCustomer(trx, link.account_id, takeover.customer_id, payment.provider_mandate_id)
      : undefined;
  if (!mandate) {
    ctx.logger.error('a takeover link was paid without a mandate of its customer; nothing was taken over', {
      accountId: link.account_id,
      linkId: link.id,
      paymentId: payment.id,
    });
    return 0;
  }
  const now = toDbDateTime(ctx.clock.now());
  if (!(await mandateTakeoversRepository.claim(trx, takeover, mandate.id, now))) return 0;
  const via = takeover.requested_via ?? undefined;
  const moved = await moveSubscriptionsTo(ctx, trx, mandate, subscriptionIdsOf(takeover), { linkId: link.id, via });
  // The customer changed it in the portal: they are told it is done, with the settle transaction (or the move, for a pending mandate).
  if (via === 'portal' && mandate.status === 'valid') await confirmMethodChanged(ctx, trx, mandate, link.id);
  return moved;
}

/** What asked for a takeover, as the key that records it waiting once. */
const originKeyOf = (mandate: MandateRow, origin: { linkId?: string; orderId?: string }): string =>
  origin.linkId ? `link-${origin.linkId}` : origin.orderId ? `order-${origin.orderId}` : `mandate-${mandate.id}`;

/**
 * A takeover onto a mandate that is still `pending` (the bank has not confirmed it) moves nothing yet:
 * the subscriptions stay on a mandate that charges, and the old one is not revoked, until the new one is
 * valid. Recorded in the caller's transaction; the refresh-mandates job moves them when it turns valid
 * (moveWaitingTakeovers). One never valid (refused) moves nothing.
 */
async function waitUntilValid(
  ctx: AppContext,
  trx: Knex.Transaction,
  mandate: MandateRow,
  chosen: readonly string[] | null,
  origin: { linkId?: string; orderId?: string; via?: TakeoverRequester },
  now: string,
): Promise<void> {
  await waitingTakeoversRepository.insert(trx, {
    account_id: mandate.account_id,
    origin_key: originKeyOf(mandate, origin),
    mandate_id: mandate.id,
    customer_id: mandate.customer_id,
    subscription_ids: chosen === null ? null : JSON.stringify([...new Set(chosen)]),
    link_id: origin.linkId ?? null,
    order_id: origin.orderId ?? null,
    requested_via: origin.via ?? null,
    moved_at: null,
    created_at: now,
  });
  ctx.logger.info('new mandate is still pending: the takeover waits until it is valid', {
    accountId: mandate.account_id,
    mandateId: mandate.id,
    ...origin,
  });
}

/**
 * The mandate turned valid (the refresh-mandates job): each takeover that waited for it moves now, once,
 * as it would have when paid (subscription.updated, the store's method_changed, the portal's mail), and
 * the old mandates left unused are revoked after the commit. Answers how many subscriptions moved.
 */
async function moveWaitingTakeovers(ctx: AppContext, mandate: MandateRow): Promise<number> {
  if (mandate.status !== 'valid') return 0;
  const waitingRows = await waitingTakeoversRepository.waitingFor(ctx.db, mandate.account_id, mandate.id);
  let moved = 0;
  for (const row of waitingRows) {
    moved += await ctx.db.transaction(async (trx) => {
      if (!(await waitingTakeoversRepository.claim(trx, row, toDbDateTime(ctx.clock.now())))) return 0;
      const via = row.requested_via ?? undefined;
      const origin = { ...(row.link_id ? { linkId: row.link_id } : {}), ...(row.order_id ? { orderId: row.order_id } : {}), via };
      const count = await moveSubscriptionsTo(ctx, trx, mandate, subscriptionIdsOf(row), origin);
      if (via === 'portal' && row.link_id) await confirmMethodChanged(ctx, trx, mandate, row.link_id);
      return count;
    });
  }
  return moved;
}

/**
 * The customer's subscriptions in use (all, or those of `chosen`) move to `mandate`, in the caller's
 * transaction, each with `subscription.updated`; a draft becomes active when the mandate is valid;
 * the old mandates left unused are recorded due and revoked after the commit (mandates/revocation.ts).
 * A mandate still `pending` moves nothing yet: the takeover waits until it is valid (waitUntilValid).
 * Answers how many moved.
 */
export async function moveSubscriptionsTo(
  ctx: AppContext,
  trx: Knex.Transaction,
  mandate: MandateRow,
  chosen: readonly string[] | null,
  origin: { linkId?: string; orderId?: string; via?: TakeoverRequester },
): Promise<number> {
  const now = toDbDateTime(ctx.clock.now());
  if (mandate.status !== 'valid') {
    await waitUntilValid(ctx, trx, mandate, chosen, origin, now);
    return 0;
  }
  const subscriptions = await subscriptionsRepository.ofCustomerNotOnMandate(trx, mandate.account_id, mandate.customer_id, {
    statuses: TAKEN_OVER,
    mandateId: mandate.id,
    ids: chosen,
  });
  const today = todayIn(ctx);
  const oldMandates: string[] = [];
  const movedIds: string[] = [];
  for (const subscription of subscriptions) {
    const moved = await subscriptionsRepository.updateIfInStatuses(trx, subscription, [...TAKEN_OVER], {
      provider_mandate_id: mandate.id,
      updated_at: now,
    });
    if (!moved) continue;
    oldMandates.push(subscription.provider_mandate_id);
    movedIds.push(subscription.id);
    await enqueueSubscriptionUpdated(trx, subscription, ['provider_mandate_id'], now, origin.via ? { via: origin.via } : {});
    if (subscription.status === 'draft' && mandate.status === 'valid') {
      const rules = await subscriptionsRepository.rulesOf(trx, mandate.account_id, [subscription.id]);
      await activateDraftIn(trx, { ...subscription, provider_mandate_id: mandate.id }, rules, today, now);
    }
  }
  const [first] = movedIds;
  // A takeover link (not a store checkout) is a change of payment method: the store hears of it once,
  // named by its first subscription, with all it moved.
  if (origin.linkId && first) {
    const extra = { subscription_ids: movedIds, ...(origin.via ? { via: origin.via } : {}) };
    await enqueueStoreSubscriptionEvent(trx, { id: first, account_id: mandate.account_id }, 'method_changed', now, extra);
  }
  const due = await scheduleRevocationOfUnused(trx, mandate.account_id, oldMandates, now);
  if (due.length) revokeDueAfterCommit(ctx, trx);
  ctx.logger.info('new mandate took over', {
    accountId: mandate.account_id,
    ...origin,
    mandateId: mandate.id,
    subscriptions: oldMandates.length,
    revocationsDue: due.length,
  });
  return oldMandates.length;
}
