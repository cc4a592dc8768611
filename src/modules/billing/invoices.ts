import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { newId } from '../../ids';
import type { PaymentRow } from '../payments/repository';
import { accountsRepository } from '../accounts/repository';
import { subscriptionsRepository, type InvoiceRuleRow } from '../subscriptions/repository';
import type { ChargeRow } from './chargesRepository';
import { invoicesRepository, type InvoiceRow } from './invoicesRepository';
import { splitInclusive, vatCents } from '../../money/vat';
import { toDbDateTime } from '../../time';
import { enqueueAccountEvent } from '../../outbox/events';
import { invoiceSettingsRepository } from './invoiceSettingsRepository';
import { buildDocument, vatTreatment, type InvoiceDocument, type InvoiceLine } from './invoiceDocument';
import { invoiceDocumentsRepository } from './invoiceDocumentsRepository';

export type { InvoiceLine };

/** Lines with their VAT rounded per line (half-up), as bookkeeping systems compute them. */
export function invoiceLines(rules: readonly InvoiceRuleRow[]): InvoiceLine[] {
  return [...rules]
    .sort((a, b) => a.position - b.position)
    .map((rule) => {
      const excluding = rule.quantity * rule.amount;
      const vat = vatCents(excluding, rule.vat);
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

/**
 * A paid charge's invoice, in the payment's status transaction (unique per charge, so a repeated
 * webhook adds nothing). Its lines are the subscription's invoice rules when it has them (their
 * VAT per line, half-up), else one line of the amount charged at the account's default VAT rate
 * (the rate of the customer's country under OSS, 0 % reverse-charged for an EU business abroad),
 * VAT-inclusive. It gets the account's next number in this transaction — unless its lines do not
 * add up to the amount charged: then it is kept unnumbered as `not_issued` with the reason, and the
 * merchant is sent an `invoice.not_issued` event.
 */
export async function recordInvoice(ctx: AppContext, trx: Knex.Transaction, charge: ChargeRow, payment: PaymentRow): Promise<void> {
  if (await invoicesRepository.existsForCharge(trx, charge.id)) return;
  const now = toDbDateTime(ctx.clock.now());
  const rules = await subscriptionsRepository.invoiceRulesOf(trx, charge.account_id, charge.rule_id);
  const settings = await invoiceSettingsRepository.settingsOf(trx, charge.account_id, now);
  const customer = payment.customer_id
    ? await invoiceDocumentsRepository.customerOf(trx, charge.account_id, payment.customer_id)
    : undefined;
  const treatment = vatTreatment(settings, customer ?? null);
  const subscription = await subscriptionsRepository.find(trx, charge.account_id, charge.subscription_id);
  const lines = rules.length
    ? invoiceLines(rules).map((line) =>
        treatment.reverseCharge ? { ...line, vat: '0', total_vat: 0, total_including_vat: line.total_excluding_vat } : line,
      )
    : [inclusiveLine(subscription?.name ?? payment.description, charge.amount, treatment.rate)];
  const totalIncluding = sumOf(lines, (line) => line.total_including_vat);
  const issuable = totalIncluding === charge.amount;
  const taken = issuable ? await invoiceSettingsRepository.takeNumber(trx, charge.account_id, now) : null;
  const style = await subscriptionsRepository.bookkeepingStyleOf(trx, charge.account_id, charge.subscription_id);
  const account = await accountsRepository.bookkeepingSystemOf(trx, charge.account_id);
  const document: InvoiceDocument = await buildDocument(trx, {
    kind: 'invoice',
    accountId: charge.account_id,
    settings: taken?.settings ?? settings,
    number: taken?.number ?? null,
    customer: customer ?? null,
    payment,
    lines,
    treatment,
    issuedAt: payment.paid_at ?? payment.updated_at,
    timeZone: ctx.config.APP_TIMEZONE,
  });
  const row: InvoiceRow = {
    id: newId('ivc'),
    account_id: charge.account_id,
    subscription_id: charge.subscription_id,
    charge_id: charge.id,
    payment_id: payment.id,
    customer_id: payment.customer_id,
    currency: charge.currency,
    lines: JSON.stringify(lines),
    total_excluding_vat: sumOf(lines, (line) => line.total_excluding_vat),
    total_vat: sumOf(lines, (line) => line.total_vat),
    total_including_vat: totalIncluding,
    workflow_id: style?.workflow_id ?? null,
    docstyle_id: style?.docstyle_id ?? null,
    // Only an issued invoice with invoice rules goes to the bookkeeping system: one whose lines do not add
    // up to the charge is the merchant's to correct, not the bookkeeping's.
    bookkeeping_status: rules.length && account?.bookkeeping_system && issuable ? 'pending' : 'none',
    bookkeeping_reference: null,
    number: taken?.number ?? null,
    status: issuable ? 'issued' : 'not_issued',
    not_issued_reason: issuable
      ? null
      : `The invoice lines add up to ${totalIncluding} cents including VAT, the amount charged was ${charge.amount} cents`,
    document: JSON.stringify(document),
    created_at: payment.updated_at,
  };
  await invoicesRepository.insert(trx, row);
  if (!issuable) {
    await enqueueAccountEvent(
      trx,
      row.account_id,
      {
        name: 'invoice.not_issued',
        resourceId: row.id,
        body: { payment_id: payment.id, subscription_id: row.subscription_id, reason: row.not_issued_reason },
      },
      now,
    );
    ctx.logger.warn('invoice not issued: lines differ from the amount charged', {
      accountId: row.account_id,
      invoiceId: row.id,
      chargeId: charge.id,
    });
    return;
  }
  ctx.logger.info('invoice issued', { accountId: row.account_id, invoiceId: row.id, chargeId: charge.id });
}
