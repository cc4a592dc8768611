import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/connect';
import { calendarDateIn, toDbDateTime } from '../../time';
import { accountsRepository } from '../accounts/repository';
import { mandatesRepository } from '../mandates/repository';
import type { PaymentRow } from '../payments/repository';
import type { PaymentSettlement } from '../payments/settlement';
import { subscriptionsRepository } from '../subscriptions/repository';
import { insertPaidFirst, subscriptionPaidFirst } from '../subscriptions/paidFirstPeriod';
import { newSubscription } from '../subscriptions/service';
import { trialOf } from './regularCharges';
import { linkFulfilmentsRepository, paymentLinksRepository, type LinkFulfilmentRow, type PaymentLinkRow } from './repository';
import { linkRulesOf } from './rules';
import { dateAfterTrial } from './trial';

/**
 * When a link's payment is paid, the link is fulfilled: it becomes `paid`, takes the payer as its
 * customer, and a subscription link gets its subscription on the mandate the payment created (a
 * mandate link's takeover is the takeovers module's, reached through ctx.linkFulfilments). Runs
 * inside the transaction that records the payment's status (the settle hook), so the link and the
 * payment change together or not at all.
 *
 * Exactly once per link: the fulfilment row's primary key is the link id. Two payments of one link
 * paid at once (a double click, two tabs) or a webhook processed twice can only insert it once; the
 * other one finds it taken and changes nothing.
 */
export function registerLinkFulfilment(ctx: AppContext): void {
  ctx.settlements.on('fulfilment', ['link'], async (trx, settlement) => {
    if (settlement.to === 'paid') await fulfilLink(ctx, trx, settlement);
  });
}

/** Who signs a link's subscription up at the provider: the account's own profile when it has one set. */
const KEY_OWN_PROFILE = 'default';

async function fulfilLink(ctx: AppContext, trx: Knex.Transaction, { payment }: PaymentSettlement): Promise<void> {
  const now = toDbDateTime(ctx.clock.now());
  // Takes the link's row lock before anything else (MySQL; SQLite has one writer anyway): two payments
  // of one link settling at once then queue here, instead of both locking the link through the
  // fulfilment's foreign key and deadlocking on its primary key.
  const locked =
    payment.purpose_id === null
      ? 0
      : await paymentLinksRepository.update(trx, { id: payment.purpose_id, account_id: payment.account_id }, { updated_at: now });
  const link =
    locked === 0 || payment.purpose_id === null
      ? undefined
      : await paymentLinksRepository.find(trx, payment.account_id, payment.purpose_id);
  if (!link) {
    ctx.logger.error('a link payment was paid but its link is not found', { payment: payment.id, link: payment.purpose_id });
    return;
  }
  const fulfilment: LinkFulfilmentRow = {
    link_id: link.id,
    account_id: link.account_id,
    payment_id: payment.id,
    subscription_id: null,
    created_at: now,
  };
  try {
    await linkFulfilmentsRepository.insert(trx, fulfilment);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Paid a second time: the money is there, the link was fulfilled already. Someone must refund it.
    ctx.logger.warn('payment link paid more than once; refund the later payment', { link: link.id, payment: payment.id });
    return;
  }
  const subscriptionId = link.type === 'subscription' ? await subscribe(ctx, trx, link, payment) : null;
  // A mandate link may carry a takeover: its new mandate becomes the one the subscriptions charge. The
  // takeovers module (above links) fulfils it through its hook; with none registered this throws.
  if (link.type === 'mandate') await ctx.linkFulfilments.fulfil(trx, link, payment);
  if (subscriptionId) await linkFulfilmentsRepository.recordSubscription(trx, link.id, subscriptionId);
  await paymentLinksRepository.update(trx, link, {
    status: 'paid',
    paid_at: now,
    customer_id: link.customer_id ?? payment.customer_id,
    subscription_id: subscriptionId,
    updated_at: now,
  });
}

/**
 * The link's subscription on the mandate the paid first payment created; null (logged) when there is
 * none. Without a trial the first payment paid the first period: it is charge 1 and counts against
 * the first rule's `times`. With a trial it paid no period: the charges start after the trial, and
 * all `times` of them are still to come.
 */
async function subscribe(ctx: AppContext, trx: Knex.Transaction, link: PaymentLinkRow, payment: PaymentRow): Promise<string | null> {
  const mandate =
    payment.customer_id && payment.provider_mandate_id
      ? await mandatesRepository.findForCustomer(trx, link.account_id, payment.customer_id, payment.provider_mandate_id)
      : undefined;
  const rules = linkRulesOf(link);
  const [firstRule] = rules;
  if (!mandate || !firstRule) {
    ctx.logger.error('a subscription link was paid without a mandate to charge; no subscription was made', {
      link: link.id,
      payment: payment.id,
    });
    return null;
  }
  const settings = await accountsRepository.providerSettings(trx, link.account_id);
  const paidDate = calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
  const input = {
    name: link.description,
    customer_id: mandate.customer_id,
    provider_profile_id: settings?.provider_profile_id ?? KEY_OWN_PROFILE,
    provider_mandate_id: mandate.id,
    rules,
    workflow_id: null,
    docstyle_id: null,
  };
  const trial = trialOf(link);
  if (!trial) {
    const made = subscriptionPaidFirst(
      { id: link.account_id },
      input,
      mandate,
      { payment, amount: Number(payment.amount), paidDate },
      ctx.clock.now(),
    );
    await insertPaidFirst(ctx, trx, made, payment);
    return made.row.id;
  }
  const {
    row,
    rules: ruleRows,
    invoiceRules,
  } = newSubscription({ id: link.account_id }, { ...input, start_date: dateAfterTrial(paidDate, trial) }, mandate, ctx.clock.now());
  await subscriptionsRepository.insertWithRules(trx, row, ruleRows, invoiceRules);
  return row.id;
}
