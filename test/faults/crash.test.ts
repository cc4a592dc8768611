import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { TEST_MOLLIE_KEY } from '../support/mollieNock';
import { connectedSimulatorStore } from '../support/connectedStore';
import { TEST_DATABASES } from '../support/databases';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveOverHttps } from '../../fakes/mollie/https';
import { runCliProcess, startServiceProcess, type ServiceProcess } from '../support/serviceProcess';
import { toDbDateTime } from '../../src/time';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/testApp';
import { expectCleanAuditByProcess } from '../support/audit';

const LOCK_SECONDS = 1;
const customerBody = { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The service as a separate process, killed with SIGKILL while Mollie holds its answer: the work is
 * done at Mollie, our process is gone before it hears of it. After a restart, the same request (same
 * Idempotency-Key) or the job that finishes stalled creations ends with exactly one object at Mollie.
 */
// Child processes start, crash and restart here; on a busy 2-core CI machine that takes longer than the default.
jest.setTimeout(90_000);

describe.each(TEST_DATABASES)('a crash while Mollie holds the answer, on %s', (kind) => {
  let t: TestApp;
  let fake: MollieFake;
  let mollie: { apiUrl: string; close(): Promise<void> };
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    t = await createTestApp(kind);
    fake = new MollieFake('');
    mollie = await serveOverHttps(fake);
  });
  afterAll(async () => {
    await service?.stop();
    await mollie.close();
    await t.close();
  });
  afterEach(async () => {
    fake.heal();
    fake.releaseHeld();
    await service?.stop();
    service = undefined;
    await expectCleanAuditByProcess(serviceEnv());
  });

  /** The environment of every process of the service under test: the test's database, the fake's TLS. */
  const serviceEnv = () => ({
    NODE_ENV: 'test',
    DATABASE_URL: t.ctx.config.DATABASE_URL,
    APP_KEY: `base64:${t.ctx.config.appKey.toString('base64')}`,
    PUBLIC_URL: TEST_PUBLIC_URL,
    IDEMPOTENCY_LOCK_SECONDS: String(LOCK_SECONDS),
    // For these children only: the fake's certificate is self-signed.
    NODE_TLS_REJECT_UNAUTHORIZED: '0',
  });

  const start = async () => {
    service = await startServiceProcess(serviceEnv());
    return service;
  };

  async function mollieAccount() {
    const name = `Crash ${randomBase62(8)}`;
    const { accountId, token } = await t.newAccount(name);
    await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false, mollieApiUrl: mollie.apiUrl });
    return { accountId, token };
  }

  const post = (running: ServiceProcess, token: string, path: string, body: unknown, key: string) =>
    fetch(`${running.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify(body),
    });

  /** Sends the request, waits until Mollie has done the work and holds the answer, then kills the service. */
  async function crashWhileHeld(running: ServiceProcess, send: () => Promise<Response>) {
    const lostRequest = send().then(
      () => 'answered',
      () => 'connection lost',
    );
    await fake.untilHeld();
    await running.crash();
    expect(await lostRequest).toBe('connection lost');
  }

  it(
    'When the service is killed while Mollie holds the payment answer, then after a restart the same key gets that one ' + 'payment',
    async () => {
      const { accountId, token } = await mollieAccount();
      const first = await start();
      const customer = await post(first, token, '/api/v2/customers', customerBody, `customer-${randomBase62(6)}`);
      expect(customer.status).toBe(201);
      const { provider_customer_id: providerCustomerId } = (await customer.json()) as { provider_customer_id: string };
      const payment = {
        amount: 25,
        currency: 'EUR',
        provider_customer_id: providerCustomerId,
        description: 'Order 2001',
        redirect_url: 'https://shop.example/thanks',
      };

      fake.holdAnswers('POST', /^\/v2\/payments/, 1);
      await crashWhileHeld(first, () => post(first, token, '/api/v2/payments', payment, 'order-2001'));
      const [kept] = await t.ctx.db('payments').where({ account_id: accountId });
      expect(kept).toMatchObject({ status: 'creating', provider_payment_id: null });
      const madeAtMollie = fake.paymentsWithReference(kept.id);
      expect(madeAtMollie).toHaveLength(1);

      const second = await start();
      await sleep(LOCK_SECONDS * 1000 + 1100); // the dead request's lock, stored to the second
      const retry = await post(second, token, '/api/v2/payments', payment, 'order-2001');
      const body = (await retry.json()) as { id: string; provider_payment_id: string; status: string };
      expect({ status: retry.status, body }).toEqual({
        status: 201,
        body: { id: kept.id, provider_payment_id: madeAtMollie[0]?.id, status: 'open', provider_checkout_url: expect.any(String) },
      });
      expect(fake.payments.size).toBe(1);
      expect(await t.ctx.db('payments').where({ account_id: accountId })).toHaveLength(1);
    },
  );

  it(
    'When the service is killed while Mollie holds the customer answer, then after a restart the same key gets that one ' + 'customer',
    async () => {
      const { accountId, token } = await mollieAccount();
      const first = await start();
      fake.holdAnswers('POST', /^\/v2\/customers$/, 1);
      await crashWhileHeld(first, () => post(first, token, '/api/v2/customers', customerBody, 'customer-anna'));
      const [kept] = await t.ctx.db('customers').where({ account_id: accountId });
      expect(kept.provider_customer_id).toBeNull();

      const second = await start();
      await sleep(LOCK_SECONDS * 1000 + 1100);
      const retry = await post(second, token, '/api/v2/customers', customerBody, 'customer-anna');
      expect(retry.status).toBe(201);
      const body = (await retry.json()) as { id: string; provider_customer_id: string };
      expect(body.id).toBe(kept.id);
      expect(fake.customersWithReference(kept.id)).toHaveLength(1);
      expect(body.provider_customer_id).toBe(fake.customersWithReference(kept.id)[0]?.id);
    },
  );

  it(
    'When the service is killed while Mollie holds the 0.01 first payment of a free trial’s store order, then after a restart the ' +
      'same key gets that one payment',
    async () => {
      const { accountId, token } = await mollieAccount();
      const store = await connectedSimulatorStore(t, token);
      try {
        const [magazine] = store.addProducts(1, () => ({
          name: 'Magazine',
          price: '5.00',
          virtual: true,
          meta_data: [
            { key: '_rps_recurring', value: 'yes' },
            { key: '_rps_interval', value: 'month' },
            { key: '_rps_trial_days', value: '30' },
          ],
        }));
        const shopOrderId = store.addOrders(1, () => ({
          status: 'pending',
          total: '0.00',
          line_items: [{ id: 1, product_id: magazine, quantity: 1, subtotal: '5.00', subtotal_tax: '1.05', total: '5.00' }],
        }))[0] as number;
        const first = await start();
        const customer = await post(first, token, '/api/v2/customers', customerBody, `customer-${randomBase62(6)}`);
        const { provider_customer_id: providerCustomerId } = (await customer.json()) as { provider_customer_id: string };
        const payment = {
          amount: 0,
          currency: 'EUR',
          provider_customer_id: providerCustomerId,
          description: `Order ${shopOrderId}`,
          redirect_url: 'https://shop.example/thanks',
          shop_order_id: shopOrderId,
        };

        fake.holdAnswers('POST', /^\/v2\/payments/, 1);
        await crashWhileHeld(first, () => post(first, token, '/api/v2/payments', payment, `trial-${shopOrderId}`));
        const [kept] = await t.ctx.db('payments').where({ account_id: accountId });
        expect(kept).toMatchObject({ status: 'creating', amount: 1, sequence_type: 'first' });
        expect(fake.paymentsWithReference(kept.id)).toHaveLength(1);

        const second = await start();
        await sleep(LOCK_SECONDS * 1000 + 1100);
        const retry = await post(second, token, '/api/v2/payments', payment, `trial-${shopOrderId}`);
        expect(retry.status).toBe(201);
        expect(((await retry.json()) as { id: string }).id).toBe(kept.id);
        // The fake is shared by this file's tests: this one's payments are those of this account's rows.
        expect(fake.paymentsWithReference(kept.id)).toHaveLength(1);
        expect(await t.ctx.db('payments').where({ account_id: accountId })).toHaveLength(1);
      } finally {
        await store.stop();
      }
    },
  );

  it('When the service is killed halfway and the client never comes back, then the job finishes the payment once', async () => {
    const { accountId, token } = await mollieAccount();
    const first = await start();
    const customer = await post(first, token, '/api/v2/customers', customerBody, `customer-${randomBase62(6)}`);
    const { provider_customer_id: providerCustomerId } = (await customer.json()) as { provider_customer_id: string };
    fake.holdAnswers('POST', /^\/v2\/payments/, 1);
    const payment = {
      amount: 30,
      currency: 'EUR',
      provider_customer_id: providerCustomerId,
      description: 'Order 2002',
      redirect_url: 'https://shop.example/thanks',
    };
    await crashWhileHeld(first, () => post(first, token, '/api/v2/payments', payment, 'order-2002'));
    const [kept] = await t.ctx.db('payments').where({ account_id: accountId });

    // Some minutes pass (the row's first resumption, two minutes after it was written, is made due); then the job runs once.
    expect(kept.next_attempt_at > toDbDateTime(new Date())).toBe(true);
    await t.ctx
      .db('payments')
      .where({ account_id: accountId, id: kept.id })
      .update({ next_attempt_at: toDbDateTime(new Date(Date.now() - 60_000)) });
    const job = await runCliProcess(serviceEnv(), ['jobs', 'run', 'finish-provider-creations']);
    expect(job).toMatchObject({ code: 0, stdout: expect.stringContaining('finish-provider-creations: 1 processed, 0 failed') });
    const [finished] = await t.ctx.db('payments').where({ account_id: accountId });
    expect(finished).toMatchObject({ id: kept.id, status: 'open', provider_payment_id: fake.paymentsWithReference(kept.id)[0]?.id });
    expect(fake.paymentsWithReference(kept.id)).toHaveLength(1);
  });
});
