import type { BookkeepingAdapter } from '../adapter';
import { BookkeepingRefusal } from '../types';
import { MoneybirdBookkeeping } from './adapter';
import { disconnectMoneybird, moneybirdConnectionOf } from './connection';
import { moneybirdSettingsForm } from './settingsForm';
import { checkMoneybirdStyles } from './styles';

/**
 * Moneybird: an account connects an administration with an API token (`accounts set-bookkeeping moneybird`);
 * invoices become sales invoices there, credit invoices negative ones; subscriptions name a workflow and a
 * document style that the administration must have.
 */
export const moneybirdAdapter: BookkeepingAdapter = {
  name: 'moneybird',
  displayName: 'Moneybird',
  async open(ctx, accountId) {
    // A connection whose token cannot be read throws MoneybirdConnectionError, itself a refusal.
    const connection = await moneybirdConnectionOf(ctx, ctx.db, accountId);
    if (!connection) throw new BookkeepingRefusal('The account is no longer connected to Moneybird');
    return new MoneybirdBookkeeping(ctx.db, ctx.clock, connection);
  },
  accountSettings: moneybirdSettingsForm,
  disconnect: (ctx, accountId) => disconnectMoneybird(ctx.db, accountId),
  async checkDocumentStyle(ctx, accountId, ids) {
    const refusals: Partial<Record<'workflow_id' | 'docstyle_id', string>> = {};
    for (const field of await checkMoneybirdStyles(ctx, accountId, ids))
      refusals[field] =
        `The selected ${field.replace('_', ' ')} is invalid: the Moneybird administration has no such ${field.replace('_id', '')}.`;
    return refusals;
  },
};
