import request from 'supertest';
import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { startPayment } from '../../src/modules/payments/pipeline';
import type { PaymentSettlement } from '../../src/modules/payments/settlement';
import { syncPaymentFromProvider } from '../../src/modules/payments/service';
import type { PaymentProvider } from '../../src/providers';
import type { ProviderPayment } from '../../src/providers/types';
import { TEST_MOLLIE_KEY } from '../support/mollieNock';
import { TEST_DATABASES } from '../support/databases';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveWithNock } from '../../fakes/mollie/nock';
import { useTestApp } from '../support/testApp';

/**
 * How a payment's status moves after its creation: every change applied once, none dropped when two
 * processors race, a paid first payment's mandate kept, and the settle hook told exactly once.
 */
describe.each(TEST_DATABASES)('payment status changes, on %s', (kind) => {
  const t = useTestApp(kind);
  let fake: MollieFake;
  let served: { stop(): void };
  const settlements: PaymentSettlement[] = [];

  beforeAll(async () => {
    t.ctx.settlements.on('invoices', 'all', async (_trx, settlement) => {
      settlements.push(settlement);
    });
  });
  beforeEach(() => {
    fake = new MollieFake('https://api.mollie.com');
    served = serveWithNock(fake);
  });
  afterEach(async () => {
    served.stop();
    await t.ctx.background.idle();
  });

  async function accountWithCustomer() {
    const name = `Status ${randomBase62(8)}`;
    const { accountId, token } = await t.newAccount(name);
    await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
    const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' });
    expect(customer.status).toBe(201);
    const account = await t.ctx.db('accounts').where({ id: accountId }).first();
    return {
      accountId,
      token,
      account,
      customer: { id: customer.body.id as string, providerCustomerId: customer.body.provider_customer_id as string },
    };
  }

  const settledFor = (paymentId: string) =>
    settlements.filter((settlement) => settlement.payment.id === paymentId).map(({ from, to }) => `${from}->${to}`);
  const historyOf = async (accountId: string, paymentId: string) =>
    (await t.ctx.db('payment_status_changes').where({ account_id: accountId, payment_id: paymentId }).orderBy('seq')).map(
      (change) => change.status,
    );

  /** The provider as the account sees it, with getPayment answered by `answer` instead. */
  function withGetPayment(answer: (real: PaymentProvider, id: string) => Promise<ProviderPayment>) {
    const registry = t.ctx.providers;
    t.ctx.providers = {
      async forAccount(account) {
        const real = await registry.forAccount(account);
        return Object.assign(Object.create(real) as PaymentProvider, { getPayment: (id: string) => answer(real, id) });
      },
    };
    return () => {
      t.ctx.providers = registry;
    };
  }

  it('When two processors race (open → pending here, open → paid there) and paid loses the race, then paid is still applied', async () => {
    const { accountId, token, customer } = await accountWithCustomer();
    const created = await t.as(token).post('/api/v2/payments', {
      amount: 10,
      currency: 'EUR',
      provider_customer_id: customer.providerCustomerId,
      description: 'Race',
      redirect_url: 'https://shop.example/thanks',
    });
    const providerPaymentId = created.body.provider_payment_id as string;

    let releasePaid = () => {};
    const paidMayAnswer = new Promise<void>((resolve) => (releasePaid = resolve));
    let paidAsked = () => {};
    const paidProcessorReadOpen = new Promise<void>((resolve) => (paidAsked = resolve));
    let calls = 0;
    const restore = withGetPayment(async (real, id) => {
      calls += 1;
      const now = await real.getPayment(id);
      if (calls === 1) {
        // The processor that will report paid has read our payment as open; its answer waits.
        paidAsked();
        await paidMayAnswer;
        return { ...now, status: 'paid', paidAt: new Date('2026-11-21T10:05:00Z') };
      }
      return { ...now, status: 'pending' };
    });
    try {
      const reportingPaid = syncPaymentFromProvider(t.ctx, accountId, providerPaymentId);
      await paidProcessorReadOpen;
      await syncPaymentFromProvider(t.ctx, accountId, providerPaymentId); // open → pending wins the race
      releasePaid();
      expect((await reportingPaid)?.status).toBe('paid');
    } finally {
      releasePaid();
      restore();
    }
    expect(await historyOf(accountId, created.body.id)).toEqual(['open', 'pending', 'paid']);
    expect(settledFor(created.body.id)).toEqual(['pending->paid']);
  });

  it('When Mollie reports a paid payment three times, then it is applied once and the settle hook hears it once', async () => {
    const { accountId, token, customer, account } = await accountWithCustomer();
    const created = await t.as(token).post('/api/v2/payments', {
      amount: 12.5,
      currency: 'EUR',
      provider_customer_id: customer.providerCustomerId,
      description: 'Duplicates',
      redirect_url: 'https://shop.example/thanks',
    });
    fake.setPaymentStatus(created.body.provider_payment_id, 'paid');
    for (let call = 0; call < 3; call += 1) {
      const res = await request(t.app)
        .post(`/webhooks/mollie?account=${account.public_ref}`)
        .type('form')
        .send({ id: created.body.provider_payment_id });
      expect(res.status).toBe(200);
      await t.ctx.background.idle();
    }
    expect(await historyOf(accountId, created.body.id)).toEqual(['open', 'paid']);
    expect(settledFor(created.body.id)).toEqual(['open->paid']);
  });

  it('When a first payment is paid, then its mandate id is stored and the mandate can carry a subscription', async () => {
    const { accountId, token, customer, account } = await accountWithCustomer();
    const first = await startPayment(t.ctx, account, {
      purpose: 'link',
      purposeId: 'lnk_example',
      customer,
      sequenceType: 'first',
      mandateId: null,
      amount: 1,
      currency: 'EUR',
      description: 'First payment',
      method: null,
      redirectUrl: 'https://shop.example/thanks',
      webhookUrl: null,
      profileId: null,
    });
    expect(first).toMatchObject({ status: 'open', purpose: 'link', purpose_id: 'lnk_example', sequence_type: 'first' });
    const mandateId = fake.payFirstPayment(first.provider_payment_id ?? '');

    await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: first.provider_payment_id });
    await t.ctx.background.idle();

    expect(await t.ctx.db('payments').where({ account_id: accountId, id: first.id }).first()).toMatchObject({
      status: 'paid',
      provider_mandate_id: mandateId,
    });
    expect(await t.ctx.db('mandates').where({ account_id: accountId, id: mandateId }).first()).toMatchObject({
      customer_id: customer.id,
      method: 'creditcard',
      status: 'valid',
      card_number: '6787',
      mandate_reference: null,
    });
    const subscription = await t.as(token).post('/api/v2/subscriptions', {
      name: 'Coffee',
      customer_id: customer.id,
      provider_profile_id: 'pfl_QkEhN94Ba',
      provider_mandate_id: mandateId,
      start_date: '2026-12-01',
      rules: [{ amount: 9.95, interval: 'month', interval_amount: 1 }],
    });
    expect(subscription.status).toBe(201);
    expect(subscription.body.status).toBe('active');
    expect(settledFor(first.id)).toEqual(['open->paid']);
  });
});
