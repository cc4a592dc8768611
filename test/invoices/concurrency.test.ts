import { findOrCreateAccount } from '../../src/modules/accounts/service';
import type { ChargeRow } from '../../src/modules/subscriptions/chargesRepository';
import { recordInvoice } from '../../src/modules/invoices/issuing';
import { setInvoiceSettings } from '../../src/modules/invoices/settingsRepository';
import type { PaymentRow } from '../../src/modules/payments/repository';
import type { AppContext } from '../../src/context';
import { seedBillableSubscriptions } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { createTwoContexts, type TwoContexts } from '../support/twoContexts';

const COUNT = 24;
const stamp = '2026-12-01 06:00:00';

/** A paid charge of each subscription, written as billing and its settlement would have. */
async function paidCharges(
  ctx: AppContext,
  accountId: string,
  subscriptionIds: string[],
): Promise<Array<{ charge: ChargeRow; payment: PaymentRow }>> {
  const made: Array<{ charge: ChargeRow; payment: PaymentRow }> = [];
  for (const [index, subscriptionId] of subscriptionIds.entries()) {
    const subscription = await ctx.db('subscriptions').where({ id: subscriptionId }).first();
    const rule = await ctx.db('subscription_rules').where({ subscription_id: subscriptionId }).first();
    const charge: ChargeRow = {
      id: `chg_concurrent${index}`,
      account_id: accountId,
      subscription_id: subscriptionId,
      charge_number: 1,
      rule_id: rule.id,
      due_date: '2026-12-01',
      amount: 1250,
      currency: 'EUR',
      status: 'paid',
      payment_id: `tr_concurrent${index}`,
      claim_token: null,
      claimed_until: null,
      attempts: 1,
      last_error: null,
      created_at: stamp,
      updated_at: stamp,
    };
    const payment: PaymentRow = {
      id: `tr_concurrent${index}`,
      account_id: accountId,
      customer_id: subscription.customer_id,
      subscription_id: subscriptionId,
      purpose: 'charge',
      purpose_id: charge.id,
      origin_key: `charge-${charge.id}`,
      provider_payment_id: `tr_provider${index}`,
      provider_customer_id: null,
      provider_mandate_id: null,
      provider_profile_id: 'pfl_test123456',
      sequence_type: 'recurring',
      status: 'paid',
      amount: 1250,
      currency: 'EUR',
      description: 'Coffee box',
      method: 'directdebit',
      redirect_url: null,
      webhook_url: null,
      checkout_url: null,
      failure_reason: null,
      failure_code: null,
      paid_at: stamp,
      next_attempt_at: null,
      create_attempts: 0,
      created_at: stamp,
      updated_at: stamp,
    };
    await ctx.db('subscription_charges').insert(charge);
    await ctx.db('payments').insert(payment);
    made.push({ charge, payment });
  }
  return made;
}

/**
 * Two service instances settling paid charges of one account at once, each charge's invoice in its
 * own transaction: the numbers are 1…n without a gap or a double, as the counter row is updated in
 * place under its lock in the transaction that writes the invoice.
 */
describe.each(TEST_DATABASES)('invoice numbers of two billing processes at once on %s', (kind) => {
  let two: TwoContexts;

  beforeEach(async () => {
    two = await createTwoContexts(kind);
  });
  afterEach(async () => {
    await two.close();
  });

  it('When two instances issue invoices of one account at once, then the numbers run from the first without gaps or doubles', async () => {
    const account = await findOrCreateAccount(two.first.db, two.clock, 'Concurrent invoices');
    await setInvoiceSettings(two.first.db, two.clock, 'Concurrent invoices', { prefix: 'INV-', next_number: 100 });
    const subscriptionIds = await seedBillableSubscriptions(two.first.db, account.id, COUNT);
    const paid = await paidCharges(two.first, account.id, subscriptionIds);
    // Each instance a biller working through its half, one transaction per charge, both at once.
    const biller = async (ctx: AppContext, half: number) => {
      for (const { charge, payment } of paid.filter((_, index) => index % 2 === half)) {
        // As the settlement does: the payment's status is written first, then its charge's invoice.
        await ctx.db.transaction(async (trx) => {
          await trx('payments').where({ id: payment.id }).update({ status: 'paid', updated_at: stamp });
          await recordInvoice(ctx, trx, charge, payment);
        });
      }
    };
    if (kind === 'mysql') {
      await Promise.all([biller(two.first, 0), biller(two.second, 1)]);
    } else {
      // better-sqlite3 waits for a lock synchronously, blocking this one process's event loop: two
      // instances in one process take turns here (processes.test.ts runs two processes on SQLite).
      await biller(two.first, 0);
      await biller(two.second, 1);
    }
    const numbers = (await two.first.db('invoices').where({ account_id: account.id }).pluck('number')) as string[];
    expect(numbers.map((number) => Number(number.slice('INV-'.length))).sort((a, b) => a - b)).toEqual(
      Array.from({ length: COUNT }, (_, index) => 100 + index),
    );
    expect(Number((await two.first.db('invoice_settings').where({ account_id: account.id }).first()).next_number)).toBe(100 + COUNT);
  });
});
