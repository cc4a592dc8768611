import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { newId } from '../../ids';
import type { PaymentRow } from '../payments/repository';
import { accountsRepository } from '../accounts/repository';
import { subscriptionsRepository, type InvoiceRuleRow } from '../subscriptions/repository';
import type { ChargeRow } from './chargesRepository';
import { invoicesRepository, type InvoiceRow } from './invoicesRepository';
import { vatCents } from '../../money/vat';

export interface InvoiceLine {
  quantity: number;
  description: string;
  amount: number; // cents per unit, excluding VAT
  vat: string | null; // percentage
  ledger_account_id: string | null;
  total_excluding_vat: number;
  total_vat: number;
  total_including_vat: number;
}

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

/**
 * The bookkeeping hook: a paid charge whose rule has invoice lines gets one invoice record, in the
 * payment's status transaction (unique per charge, so a repeated webhook adds nothing).
 */
export async function recordInvoice(ctx: AppContext, trx: Knex.Transaction, charge: ChargeRow, payment: PaymentRow): Promise<void> {
  const rules = await subscriptionsRepository.invoiceRulesOf(trx, charge.account_id, charge.rule_id);
  if (!rules.length) return;
  if (await invoicesRepository.existsForCharge(trx, charge.id)) return;
  const lines = invoiceLines(rules);
  const subscription = await subscriptionsRepository.bookkeepingStyleOf(trx, charge.account_id, charge.subscription_id);
  const account = await accountsRepository.bookkeepingSystemOf(trx, charge.account_id);
  const sum = (pick: (line: InvoiceLine) => number) => lines.reduce((total, line) => total + pick(line), 0);
  const row: InvoiceRow = {
    id: newId('ivc'),
    account_id: charge.account_id,
    subscription_id: charge.subscription_id,
    charge_id: charge.id,
    payment_id: payment.id,
    currency: charge.currency,
    lines: JSON.stringify(lines),
    total_excluding_vat: sum((line) => line.total_excluding_vat),
    total_vat: sum((line) => line.total_vat),
    total_including_vat: sum((line) => line.total_including_vat),
    workflow_id: subscription?.workflow_id ?? null,
    docstyle_id: subscription?.docstyle_id ?? null,
    bookkeeping_status: account?.bookkeeping_system ? 'pending' : 'none',
    bookkeeping_reference: null,
    created_at: payment.updated_at,
  };
  await invoicesRepository.insert(trx, row);
  ctx.logger.info('invoice recorded', { accountId: row.account_id, invoiceId: row.id, chargeId: charge.id });
}
