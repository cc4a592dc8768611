import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { newId } from '../../ids';
import type { PaymentRow } from '../payments/repository';
import { accountsRepository } from '../accounts/repository';
import { subscriptionsRepository, type InvoiceRuleRow } from '../subscriptions/repository';
import type { ChargeRow } from '../subscriptions/chargesRepository';
import { invoicesRepository, type InvoiceRow } from './repository';
import { splitInclusive, vatCents } from '../../money/vat';
import { toDbDateTime } from '../../time';
import { enqueueAccountEvent } from '../../events/events';
import { invoiceSettingsRepository } from './settingsRepository';
import { buildDocument, vatTreatment, type InvoiceDocument, type InvoiceLine, type LinePeriod } from './document';
import { chargePeriod } from '../subscriptions/schedule';
import { mailDocument } from './mails';
import { owedInvoicesRepository } from './owedRepository';
import { queueInvoice } from './bookkeepingOutbox';

export type { InvoiceLine };

/**
 * Lines with their VAT rounded per line (half-up), as bookkeeping systems compute them; a rule that
 * keeps the VAT a store charged (prices entered with tax round it from the gross) has that VAT, so
 * its lines add up to what was charged.
 */
export function invoiceLines(rules: readonly InvoiceRuleRow[]): InvoiceLine[] {
  return [...rules]
    .sort((a, b) => a.position - b.position)
    .map((rule) => {
      const excluding = rule.quantity * rule.amount;
      const vat = rule.vat_amount ?? vatCents(excluding, rule.vat);
      return {
        quantity: rule.quantity,
        description: rule.description,
        amount: rule.amount,
        vat: rule.vat,
        ledger_account_id: rule.ledger_account_id,
        total_excluding_vat: excluding,
        total_vat: vat,
        total_including_vat: excluding + vat,
      };
    });
}

/** One line for a VAT-inclusive amount: split so that excluding + VAT is exactly the amount. */
export function inclusiveLine(description: string, includingCents: number, vat: string | null): InvoiceLine {
  const split = splitInclusive(includingCents, vat);
  return {
    quantity: 1,
    description,
    amount: split.excluding,
    vat,
    ledger_account_id: null,
    total_excluding_vat: split.excluding,
    total_vat: split.vat,
    total_including_vat: includingCents,
  };
}

const sumOf = (lines: readonly InvoiceLine[], pick: (line: InvoiceLine) => number) => lines.reduce((total, line) => total + pick(line), 0);

/** Zero VAT on every line: a business in another EU country accounts for it itself. */
const reverseCharged = (line: InvoiceLine): InvoiceLine => ({
  ...line,
  vat: '0',
  total_vat: 0,
  total_including_vat: line.total_excluding_vat,
});

/**
 * What a paid payment is invoiced for, and with which lines: each source (a subscription's charge, a
 * link, a store order) says so; `issueInvoice` numbers, stores and mails it the same way for all.
 */
export interface InvoiceSubject {
  payment: PaymentRow;
  /** Cents the invoice is for, VAT included: what was paid for it (a checkout payment can pay more than one thing). */
  amount: number;
  subscriptionId: string | null;
  /** The charge whose period it invoices (one invoice each); null for a link, an order, or money charged back and paid again. */
  chargeId: string | null;
  linkId: string | null;
  orderId: string | null;
  /**
   * `rules`: the subscription's invoice rules, VAT ours per line (reverse-charged where it applies);
   * `store`: the lines the store invoiced, its own VAT kept (`refusal`: why they cannot be invoiced);
   * `amount`: one line of the amount.
   */
  lines:
    | { from: 'rules'; lines: InvoiceLine[] }
    | { from: 'store'; lines: InvoiceLine[]; refusal: string | null }
    | { from: 'amount'; description: string };
  /** The period its lines supply (a charge's); absent or null when the payment's date is the date of supply. */
  period?: LinePeriod | null;
}

/**
 * Which invoice a subject gets, or none when it has it: a charge's own (one per charge), else one of
 * the payment (one per payment) — also for a period paid twice (a late payment beside its follow-up's):
 * the money came, so it is invoiced, not as the charge's, and its refund credits it.
 */
async function invoiceKey(
  trx: Knex.Transaction,
  subject: InvoiceSubject,
): Promise<{ chargeId: string | null; paymentKey: string | null } | null> {
  const paymentId = subject.payment.id;
  if (subject.chargeId) {
    const paidBy = await invoicesRepository.paymentOfChargeInvoice(trx, subject.chargeId);
    if (paidBy === undefined) return { chargeId: subject.chargeId, paymentKey: null };
    if (paidBy === paymentId) return null;
  }
  return (await invoicesRepository.existsForPayment(trx, paymentId)) ? null : { chargeId: null, paymentKey: paymentId };
}

/**
 * A paid payment's invoice, in its status transaction (a repeated webhook adds nothing: see invoiceKey).
 * The lines are the subject's, else one VAT-inclusive line of the amount at the account's default rate
 * (the rate of the customer's country under OSS, 0 % reverse-charged for an EU business abroad). It
 * gets the account's next number in this transaction — unless its lines do not add up to the amount:
 * then it is kept unnumbered as `not_issued` with the reason, and the merchant is sent an
 * `invoice.not_issued` event. Mailed to the customer when the account wants it.
 */
export async function issueInvoice(ctx: AppContext, trx: Knex.Transaction, subject: InvoiceSubject): Promise<void> {
  const { payment } = subject;
  const key = await invoiceKey(trx, subject);
  if (!key) return;
  const accountId = payment.account_id;
  const now = toDbDateTime(ctx.clock.now());
  const settings = await invoiceSettingsRepository.settingsOf(trx, accountId, now);
  const customer = payment.customer_id ? await invoicesRepository.customerOf(trx, accountId, payment.customer_id) : undefined;
  const treatment = vatTreatment(settings, customer ?? null);
  const given = subject.lines;
  const made =
    given.from === 'amount'
      ? [inclusiveLine(given.description, subject.amount, treatment.rate)]
      : given.from === 'rules' && treatment.reverseCharge
        ? given.lines.map(reverseCharged)
        : given.lines;
  const { period } = subject;
  const lines = period ? made.map((line) => ({ ...line, period: line.period ?? period })) : made;
  // The store's lines carry its own VAT: reverse charge is only said where the store charged none.
  const reverseCharge =
    given.from === 'store' ? treatment.reverseCharge && lines.every((line) => line.total_vat === 0) : treatment.reverseCharge;
  const totalIncluding = sumOf(lines, (line) => line.total_including_vat);
  const refusal =
    given.from === 'store' && given.refusal
      ? given.refusal
      : totalIncluding === subject.amount
        ? null
        : `The invoice lines add up to ${totalIncluding} cents including VAT, the amount paid was ${subject.amount} cents`;
  const issuable = refusal === null;
  const taken = issuable ? await invoiceSettingsRepository.takeNumber(trx, accountId, now) : null;
  const style = subject.subscriptionId
    ? await subscriptionsRepository.bookkeepingStyleOf(trx, accountId, subject.subscriptionId)
    : undefined;
  const account = await accountsRepository.bookkeepingSystemOf(trx, accountId);
  const document: InvoiceDocument = await buildDocument(trx, {
    kind: 'invoice',
    accountId,
    settings: taken?.settings ?? settings,
    number: taken?.number ?? null,
    customer: customer ?? null,
    payment,
    lines,
    treatment: { reverseCharge, ossCountry: given.from === 'store' ? null : treatment.ossCountry },
    issuedAt: payment.paid_at ?? payment.updated_at,
    timeZone: ctx.config.APP_TIMEZONE,
  });
  const row: InvoiceRow = {
    id: newId('ivc'),
    account_id: accountId,
    subscription_id: subject.subscriptionId,
    charge_id: key.chargeId,
    link_id: subject.linkId,
    order_id: subject.orderId,
    payment_key: key.paymentKey,
    payment_id: payment.id,
    customer_id: payment.customer_id,
    currency: payment.currency,
    lines: JSON.stringify(lines),
    total_excluding_vat: sumOf(lines, (line) => line.total_excluding_vat),
    total_vat: sumOf(lines, (line) => line.total_vat),
    total_including_vat: totalIncluding,
    workflow_id: style?.workflow_id ?? null,
    docstyle_id: style?.docstyle_id ?? null,
    // Only an issued invoice with invoice rules goes to the bookkeeping system (its lines name the ledger
    // accounts); one whose lines do not add up to the payment is the merchant's to correct, not the bookkeeping's.
    bookkeeping_status: given.from === 'rules' && account?.bookkeeping_system && issuable ? 'pending' : 'none',
    bookkeeping_reference: null,
    number: taken?.number ?? null,
    status: issuable ? 'issued' : 'not_issued',
    not_issued_reason: refusal?.slice(0, 255) ?? null,
    document: JSON.stringify(document),
    created_at: payment.updated_at,
  };
  await invoicesRepository.insert(trx, row);
  // On its way to the account's bookkeeping system from the moment it exists: queued in this transaction.
  if (row.bookkeeping_status === 'pending') await queueInvoice(trx, ctx.clock, row);
  const about = { accountId, invoiceId: row.id, paymentId: payment.id };
  if (!issuable) {
    await enqueueAccountEvent(
      trx,
      accountId,
      {
        name: 'invoice.not_issued',
        resourceId: row.id,
        body: { payment_id: payment.id, subscription_id: row.subscription_id, reason: row.not_issued_reason },
      },
      now,
    );
    ctx.logger.warn('invoice not issued: lines differ from the amount paid', about);
    return;
  }
  if (settings.mail_when_paid)
    await mailDocument(ctx, trx, { kind: 'invoice', id: row.id, number: row.number ?? '', amount: totalIncluding, payment, document });
  ctx.logger.info('invoice issued', about);
}

/**
 * Records, in a paid payment's status transaction, that it is owed an invoice (of `chargeId`'s period,
 * or its own when null) — nothing more: numbering and issuing happen apart (owed.ts), after the
 * commit and again by a job, so that a failure to invoice never rolls back the money recorded.
 */
export async function oweInvoice(ctx: AppContext, trx: Knex.Transaction, payment: PaymentRow, chargeId: string | null): Promise<void> {
  const now = toDbDateTime(ctx.clock.now());
  await owedInvoicesRepository.insert(trx, {
    id: newId('iow'),
    account_id: payment.account_id,
    payment_id: payment.id,
    charge_id: chargeId,
    owed_key: `${payment.id}:${chargeId ?? ''}`,
    status: 'owed',
    attempts: 0,
    next_attempt_at: now,
    last_error: null,
    failure_reported: false,
    created_at: now,
    updated_at: now,
  });
}

/**
 * A paid charge's invoice. A store checkout's payment is the order's to invoice when the account
 * invoices orders (all of its lines, once), not each subscription's first charge.
 */
export async function recordInvoice(ctx: AppContext, trx: Knex.Transaction, charge: ChargeRow, payment: PaymentRow): Promise<void> {
  if (payment.purpose === 'order') {
    const settings = await invoiceSettingsRepository.settingsOf(trx, payment.account_id, toDbDateTime(ctx.clock.now()));
    if (settings.invoice_orders) return;
  }
  await issueInvoice(ctx, trx, await chargeSubject(trx, charge, payment, { chargeId: charge.id, amount: charge.amount }));
}

/**
 * What a payment for a charge's period is invoiced as: the subscription's invoice rules when the amount
 * is what they describe (the charge's), else one line of the amount. `chargeId` null: money charged back
 * and paid again, a new invoice beside the credited one.
 */
export async function chargeSubject(
  trx: Knex.Transaction,
  charge: ChargeRow,
  payment: PaymentRow,
  paid: { chargeId: string | null; amount: number },
): Promise<InvoiceSubject> {
  const rules = await subscriptionsRepository.invoiceRulesOf(trx, charge.account_id, charge.rule_id);
  const subscription = await subscriptionsRepository.find(trx, charge.account_id, charge.subscription_id);
  const rule = await subscriptionsRepository.findRule(trx, charge.account_id, charge.rule_id);
  return {
    period: rule ? chargePeriod(rule, charge.due_date) : null,
    payment,
    amount: paid.amount,
    subscriptionId: charge.subscription_id,
    chargeId: paid.chargeId,
    linkId: null,
    orderId: null,
    lines: subscription?.invoice_refusal
      ? // The VAT charged is not known (a store's unnamed rate, an import without one): not guessed at the account's rate.
        { from: 'store', lines: [inclusiveLine(subscription.name, paid.amount, null)], refusal: subscription.invoice_refusal }
      : rules.length && paid.amount === charge.amount
        ? { from: 'rules', lines: invoiceLines(rules) }
        : { from: 'amount', description: subscription?.name ?? payment.description },
  };
}
