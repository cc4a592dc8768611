import { z } from 'zod';
import { INTERVAL_UNITS } from '../../time/calendar';
import type { CreateSubscriptionRuleInput } from '../subscriptions/requestSchemas';
import type { PaymentLinkRow } from './repository';

/**
 * The rules of a subscription link, kept as JSON on the link in the subscription API's request form
 * (amounts already in cents) so that paying the link creates exactly the subscription it promised.
 */
export type LinkRule = CreateSubscriptionRuleInput;

/** The stored form: what the request schema gave, amounts already in cents, so nothing is converted twice. */
const storedRules = z.array(
  z.object({
    amount: z.number().int(),
    interval: z.enum(INTERVAL_UNITS),
    interval_amount: z.number().int(),
    day: z.number().int().nullable().optional(),
    times: z.number().int().nullable().optional(),
    invoice_rules: z
      .array(
        z.object({
          quantity: z.number().int(),
          description: z.string(),
          amount: z.number().int(),
          vat: z.string().nullable().optional(),
          ledger_account_id: z.string().nullable().optional(),
        }),
      )
      .optional(),
  }),
);

export function serializeLinkRules(rules: readonly LinkRule[]): string {
  return JSON.stringify(rules);
}

/** The link's rules; empty for a link that is not a subscription. A stored value we cannot read is a bug, so it throws. */
export function linkRulesOf(row: Pick<PaymentLinkRow, 'rules'>): LinkRule[] {
  if (row.rules === null) return [];
  return storedRules.parse(JSON.parse(row.rules));
}
