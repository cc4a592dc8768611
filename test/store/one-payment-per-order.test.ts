import { connectedSimulatorStore } from '../support/connectedStore';
import { TEST_DATABASES } from '../support/databases';
import type { MollieFake } from '../../fakes/mollie/fake';
import { accountAtMollieFake, type MollieAccount } from '../support/mollieAccount';
import { payStoreOrder, pendingStoreOrder } from '../support/storeCheckout';
import { useTestApp } from '../support/testApp';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

/**
 * One payment at a time per store order (POST /api/v2/payments with `shop_order_id`), against a
 * Mollie fake that counts payments and the wc/v3 store simulator: the open payment is answered again
 * for the same method, cancelled at Mollie for another, and a payment that cannot be switched any
 * more is refused with a 409 naming it.
 */
describe.each(TEST_DATABASES)('one payment per store order on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let mollie: MollieAccount;
  let fake: MollieFake;
  let store: WooSimulator;
  let providerCustomerId: string;

  beforeEach(async () => {
    mollie = await accountAtMollieFake(t, 'One per order');
    ({ fake } = mollie);
    store = await connectedSimulatorStore(t, mollie.token);
    providerCustomerId = (
      await t.as(mollie.token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' })
    ).body.provider_customer_id;
  });
  afterEach(async () => {
    mollie.stop();
    await store.stop();
  });

  const storeOrder = () => pendingStoreOrder(store);
  const pay = (shopOrderId: number, method: string) => payStoreOrder(t, mollie.token, providerCustomerId, shopOrderId, { method });
  const orderPayments = () =>
    t.ctx.db('payments').where({ account_id: mollie.accountId, purpose: 'order' }).orderBy('created_at').orderBy('seq');

  /** Mollie changes the payment and reports it. */
  async function atMollie(providerPaymentId: string, status: string) {
    fake.setPaymentStatus(providerPaymentId, status);
    await mollie.report(providerPaymentId);
  }

  it(
    'When the same method is asked again while the payment is open, then the open payment is answered (201) and Mollie holds ' + 'one',
    async () => {
      const shopOrderId = storeOrder();
      const first = await pay(shopOrderId, 'ideal');
      expect(first.status).toBe(201);
      const again = await pay(shopOrderId, 'ideal');
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(await orderPayments()).toHaveLength(1);
      expect(fake.payments.size).toBe(1);
    },
  );

  it(
    'When another method is chosen while an iDEAL payment is open, then the iDEAL one is canceled at Mollie first and a card payment ' +
      'made',
    async () => {
      const shopOrderId = storeOrder();
      const ideal = await pay(shopOrderId, 'ideal');
      expect(fake.payments.get(ideal.body.provider_payment_id)).toMatchObject({ status: 'open', method: 'ideal' });

      const card = await pay(shopOrderId, 'creditcard');
      expect(card.status).toBe(201);
      expect(card.body.id).not.toBe(ideal.body.id);
      expect(fake.payments.get(ideal.body.provider_payment_id)?.status).toBe('canceled');
      expect(fake.payments.get(card.body.provider_payment_id)).toMatchObject({ status: 'open', method: 'creditcard' });
      const cancel = fake.requests.findIndex(
        (call) => call.method === 'DELETE' && call.path === `/v2/payments/${ideal.body.provider_payment_id}`,
      );
      const create = fake.requests.findIndex(
        (call) => call.method === 'POST' && call.path.startsWith('/v2/payments') && call.body.method === 'creditcard',
      );
      expect(cancel).toBeGreaterThanOrEqual(0);
      expect(cancel).toBeLessThan(create);
      expect((await orderPayments()).map((payment) => [payment.method, payment.status])).toEqual([
        ['ideal', 'canceled'],
        ['creditcard', 'open'],
      ]);
    },
  );

  it(
    'When Mollie refuses to cancel the open payment (it was just paid), then 409 payment_in_progress names it and nothing new is ' + 'made',
    async () => {
      const shopOrderId = storeOrder();
      const ideal = await pay(shopOrderId, 'ideal');
      fake.setPaymentStatus(ideal.body.provider_payment_id, 'paid'); // its webhook has not come yet

      const card = await pay(shopOrderId, 'creditcard');
      expect(card.status).toBe(409);
      expect(card.body).toMatchObject({ status: 409, code: 'payment_in_progress' });
      expect(card.body.error).toContain(ideal.body.id);
      expect(await orderPayments()).toHaveLength(1);
      expect(fake.payments.size).toBe(1);
    },
  );

  it.each(['pending', 'authorized'])(
    'When the order’s payment is %s, then any new request is refused with a 409 naming it, whatever the method',
    async (status) => {
      const shopOrderId = storeOrder();
      const first = await pay(shopOrderId, 'banktransfer');
      await atMollie(first.body.provider_payment_id, status);

      for (const method of ['banktransfer', 'ideal']) {
        const again = await pay(shopOrderId, method);
        expect(again.status).toBe(409);
        expect(again.body).toMatchObject({
          code: 'payment_in_progress',
          error: expect.stringContaining(`Payment ${first.body.id} of order ${shopOrderId} is ${status}`),
        });
      }
      expect(fake.payments.get(first.body.provider_payment_id)?.status).toBe(status);
      expect(fake.payments.size).toBe(1);
    },
  );

  it('When the open payment failed meanwhile, then a new payment is made as before', async () => {
    const shopOrderId = storeOrder();
    const first = await pay(shopOrderId, 'ideal');
    await atMollie(first.body.provider_payment_id, 'failed');
    const second = await pay(shopOrderId, 'ideal');
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    expect(fake.payments.size).toBe(2);
  });

  it(
    'When two checkout requests for one order come at once, then the database lets one payment in and the other request gets a 409 ' +
      'naming it or that payment',
    async () => {
      const shopOrderId = storeOrder();
      const answers = await Promise.all([pay(shopOrderId, 'ideal'), pay(shopOrderId, 'creditcard'), pay(shopOrderId, 'bancontact')]);
      const underWay = (await orderPayments()).filter((payment) => ['creating', 'open', 'pending'].includes(payment.status));
      expect(underWay).toHaveLength(1);
      expect([...fake.payments.values()].filter((payment) => payment.status === 'open')).toHaveLength(1);
      for (const answer of answers) {
        if (answer.status === 201) continue;
        expect(answer.status).toBe(409);
        expect(answer.body).toMatchObject({ code: 'payment_in_progress', error: expect.stringMatching(/^Payment pay_/) });
      }
    },
  );
});
