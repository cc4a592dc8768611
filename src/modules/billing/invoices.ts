import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { newId } from '../../ids';
import type { PaymentRow } from '../payments/repository';
import type { InvoiceRuleRow } from '../subscriptions/repository';
import type { ChargeRow } from './chargesRepository';
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

export interface InvoiceRow {
  id: string;
  account_id: string;
  subscription_id: string;
  charge_id: string;
  payment_id: string;
  currency: string;
  lines: string; // JSON InvoiceLine[]
  total_excluding_vat: number;
  total_vat: number;
  total_including_vat: number;
  workflow_id: string | null;
  docstyle_id: string | null;
  bookkeeping_status: 'none' | 'pending';
  bookkeeping_reference: string | null;
  created_at: string;
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
  const rules = await trx<InvoiceRuleRow>('invoice_rules').where({ account_id: charge.account_id, subscription_rule_id: charge.rule_id });
  if (!rules.length) return;
  if (await trx('invoices').where({ charge_id: charge.id }).first('id')) return;
  const lines = invoiceLines(rules);
  const subscription = await trx('subscriptions').where({ id: charge.subscription_id, account_id: charge.account_id }).first<{ workflow_id: string | null; docstyle_id: string | null }>('workflow_id', 'docstyle_id');
  const account = await trx('accounts').where({ id: charge.account_id }).first<{ bookkeeping_system: string | null }>('bookkeeping_system');
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
  await trx('invoices').insert(row);
  ctx.logger.info('invoice recorded', { accountId: row.account_id, invoiceId: row.id, chargeId: charge.id });
}
