import { connectedSimulatorStore } from '../support/connectedStore';
import { TEST_DATABASES } from '../support/databases';
import { accountAtMollieFake, type MollieAccount } from '../support/mollieAccount';
import { payStoreOrder } from '../support/storeCheckout';
import { useTestApp } from '../support/testApp';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

/**
 * A free trial's store checkout (order total 0.00) at a Mollie fake that loses answers: the 0.01 first
 * payment that obtains the mandate is made once at Mollie however often the plugin asks, and the trial's
 * subscription then charges its `_rps_length` payments from the trial's end, and no more.
 */
describe.each(TEST_DATABASES)('a free trial checkout when Mollie’s answer is lost, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let mollie: MollieAccount;
  let store: WooSimulator;

  beforeEach(async () => {
    mollie = await accountAtMollieFake(t, 'Trial lost');
    store = await connectedSimulatorStore(t, mollie.token);
  });
  afterEach(async () => {
    await t.ctx.background.idle();
    mollie.stop();
    await store.stop();
  });

  it(
    'When the answer to the 0.01 first payment is lost, then the plugin’s retry gets the one payment Mollie made; paid, the ' +
      'trial’s subscription is charged 2 times from the trial’s end, and a third billing date charges nothing',
    async () => {
      const [magazine] = store.addProducts(1, () => ({
        name: 'Magazine',
        price: '5.00',
        virtual: true,
        meta_data: [
          { key: '_rps_recurring', value: 'yes' },
          { key: '_rps_interval', value: 'month' },
          { key: '_rps_length', value: '2' },
          { key: '_rps_trial_days', value: '10' },
        ],
      }));
      const shopOrderId = store.addOrders(1, () => ({
        status: 'pending',
        total: '0.00',
        line_items: [
          { id: 1, product_id: magazine, quantity: 1, subtotal: '5.00', subtotal_tax: '1.05', total: '5.00', total_tax: '1.05' },
        ],
        fee_lines: [{ id: 2, name: 'Free trial: Magazine', total: '-6.05', total_tax: '0.00' }],
      }))[0] as number;
      const customer = await mollie.newCustomer();
      mollie.fake.loseAnswers('POST', /^\/v2\/payments/, 1);

      const lost = await payStoreOrder(t, mollie.token, customer.provider_customer_id, shopOrderId, { amount: 0 });
      expect(lost.status).toBe(502);
      const [kept] = await t.ctx.db('payments').where({ account_id: mollie.accountId, purpose: 'order' });
      expect(kept).toMatchObject({ status: 'creating', amount: 1, sequence_type: 'first' });

      const again = await payStoreOrder(t, mollie.token, customer.provider_customer_id, shopOrderId, { amount: 0 });
      expect(again.status).toBe(201);
      expect(again.body.id).toBe(kept.id);
      expect(await t.ctx.db('payments').where({ account_id: mollie.accountId, purpose: 'order' })).toHaveLength(1);
      expect(mollie.fake.paymentsWithReference(kept.id)).toEqual([expect.objectContaining({ amount: { value: '0.01', currency: 'EUR' } })]);

      await mollie.payFirst(kept.id);
      const subscription = await mollie.subscriptionOf(customer.id);
      expect(subscription).toMatchObject({ status: 'active', next_payment_at: '2026-12-01', rules: [{ times: 2, times_done: 0 }] });

      expect(await mollie.billOn('2026-12-01')).toContain(' 1 charged');
      expect(await mollie.billOn('2027-01-01')).toContain(' 1 charged');
      expect(await mollie.billOn('2027-02-01')).toContain(' 0 charged');
      const charges = await t.ctx.db('payments').where({ account_id: mollie.accountId, purpose: 'charge' }).orderBy('seq');
      expect(charges.map((charge) => [Number(charge.amount), charge.status])).toEqual([
        [605, 'paid'],
        [605, 'paid'],
      ]);
      expect((await mollie.subscriptionOf(customer.id)).status).toBe('completed');
    },
  );
});
