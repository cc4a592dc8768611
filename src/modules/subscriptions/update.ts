import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { ValidationError } from '../../errors';
import { mandatesRepository, type MandateRow } from '../mandates/repository';
import { refuseUnchargeable } from '../../providers/amountLimits';
import { activateDraft } from './activation';
import { enqueueSubscriptionUpdated, type SubscriptionChange } from './events';
import { change, LIVE, refuse, withRetry } from './lifecycle';
import { subscriptionsRepository, type SubscriptionRow } from './repository';
import type { UpdateSubscriptionInput } from './requestSchemas';
import { replaceRulesFromNextPeriod } from './ruleChange';

const FAILED = 'Could not update subscription. Some fields contain invalid data';

/** The mandate to move to: one of the subscription's own customer at this account, valid and not revoked. */
async function usableMandate(ctx: AppContext, account: Account, row: SubscriptionRow, mandateId: string): Promise<MandateRow> {
  const mandate = await mandatesRepository.findForCustomer(ctx.db, account.id, row.customer_id, mandateId);
  if (!mandate) throw new ValidationError(FAILED, { provider_mandate_id: ['The selected provider mandate id is invalid.'] });
  if (mandate.status !== 'valid' || mandate.revoked_at !== null) {
    throw new ValidationError(FAILED, { provider_mandate_id: ['The selected provider mandate is not valid or was revoked.'] });
  }
  return mandate;
}

/**
 * `PATCH /api/v2/subscriptions/{id}` (extension): a new name, a new mandate (charges from now on are
 * made on it: charging reads the subscription's mandate when it charges), and new rules from the
 * next period not planned yet (ruleChange.ts). One `subscription.updated` event names the fields
 * whose value changed. A draft moved to a valid mandate becomes active as one whose mandate became
 * valid does.
 */
export function updateSubscription(
  ctx: AppContext,
  account: Account,
  id: string,
  input: UpdateSubscriptionInput,
): Promise<SubscriptionRow> {
  return withRetry(ctx, account, id, async (row) => {
    if (!LIVE.has(row.status)) refuse(FAILED, 'status', `A subscription that is ${row.status} cannot be changed.`);
    const mandate = input.provider_mandate_id !== undefined ? await usableMandate(ctx, account, row, input.provider_mandate_id) : null;
    if (input.rules !== undefined) {
      const chargedOn = mandate ?? (await mandatesRepository.findForCustomer(ctx.db, account.id, row.customer_id, row.provider_mandate_id));
      await refuseUnchargeable(ctx, account, {
        sequenceType: 'recurring',
        currency: row.currency,
        methods: chargedOn ? [chargedOn.method] : null,
        amounts: input.rules.map((rule, index) => ({ amount: rule.amount, field: `rules.${index}.amount` })),
        message: FAILED,
      });
    }
    const changes: SubscriptionChange[] = [];
    const updated = await change(ctx, row, async (trx, stamp) => {
      const columns: Partial<SubscriptionRow> = {};
      if (input.name !== undefined && input.name !== row.name) {
        columns.name = input.name;
        changes.push('name');
      }
      if (mandate && mandate.id !== row.provider_mandate_id) {
        columns.provider_mandate_id = mandate.id;
        changes.push('provider_mandate_id');
      }
      if (input.rules !== undefined) {
        columns.next_charge_date = await replaceRulesFromNextPeriod(trx, account, row, { rules: input.rules });
        // Invoice rules the merchant gives for every rule say the VAT an import or a store could not: invoiced by them from now on.
        if (row.invoice_refusal && input.rules.every((rule) => rule.invoice_rules?.length)) columns.invoice_refusal = null;
        changes.push('rules');
      }
      if (changes.length) await enqueueSubscriptionUpdated(trx, row, changes, stamp);
      return columns;
    });
    if (updated.status !== 'draft' || !mandate) return updated;
    await activateDraft(ctx, updated);
    return (await subscriptionsRepository.find(ctx.db, account.id, id)) as SubscriptionRow;
  });
}
