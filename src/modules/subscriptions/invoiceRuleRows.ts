import type { Account } from '../accounts/account';
import { newId } from '../../ids';
import type { InvoiceRuleRow, SubscriptionRuleRow } from './repository';
import type { CreateSubscriptionInput } from './requestSchemas';

/** The invoice lines of new rule rows, from the request's rules in the same order (create, and a PATCH of rules). */
export function invoiceRuleRowsFrom(
  account: Pick<Account, 'id'>,
  rules: SubscriptionRuleRow[],
  input: Pick<CreateSubscriptionInput, 'rules'>,
): InvoiceRuleRow[] {
  return input.rules.flatMap((rule, index) =>
    (rule.invoice_rules ?? []).map((line, position) => ({
      id: newId('inv'),
      account_id: account.id,
      subscription_rule_id: (rules[index] as SubscriptionRuleRow).id,
      position,
      quantity: line.quantity,
      description: line.description,
      amount: line.amount,
      vat: line.vat ?? null,
      vat_amount: line.vat_amount ?? null,
      ledger_account_id: line.ledger_account_id ?? null,
    })),
  );
}
