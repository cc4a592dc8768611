import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { TEST_MOLLIE_KEY } from '../support/mollieNock';
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
 * A refund whose service process is killed (SIGKILL) while Mollie holds the answer: the refund is made at Mollie,
 * our row is left `creating`. After a restart the same request (same Idempotency-Key), or the job that finishes
 * stalled creations, ends with exactly one refund at Mollie, recorded on our row.
 */
jest.setTimeout(90_000);

describe.each(TEST_DATABASES)('a crash while Mollie holds a refund answer, on %s', (kind) => {
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

  const serviceEnv = () => ({
    NODE_ENV: 'test',
    DATABASE_URL: t.ctx.config.DATABASE_URL,
    APP_KEY: `base64:${t.ctx.config.appKey.toString('base64')}`,
    PUBLIC_URL: TEST_PUBLIC_URL,
    IDEMPOTENCY_LOCK_SECONDS: String(LOCK_SECONDS),
    NODE_TLS_REJECT_UNAUTHORIZED: '0',
  });
  const start = async () => {
    service = await startServiceProcess(serviceEnv());
    return service;
  };
  const post = (running: ServiceProcess, token: string, path: string, body: unknown, key: string) =>
    fetch(`${running.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify(body),
    });

  /** An account at the fake with one paid payment of 20.00, told to the service by Mollie's webhook. */
  async function paidPayment(running: ServiceProcess) {
    const name = `Refund crash ${randomBase62(8)}`;
    const { accountId, token } = await t.newAccount(name);
    await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false, mollieApiUrl: mollie.apiUrl });
    const customer = await post(running, token, '/api/v2/customers', customerBody, `customer-${randomBase62(6)}`);
    const { provider_customer_id: providerCustomerId } = (await customer.json()) as { provider_customer_id: string };
    const made = await post(
      running,
      token,
      '/api/v2/payments',
      {
        amount: 20,
        currency: 'EUR',
        provider_customer_id: providerCustomerId,
        description: 'Order 3001',
        redirect_url: 'https://shop.example/thanks',
      },
      `order-${randomBase62(6)}`,
    );
    const payment = (await made.json()) as { id: string; provider_payment_id: string };
    fake.setPaymentStatus(payment.provider_payment_id, 'paid');
    const { public_ref: publicRef } = await t.ctx.db('accounts').where({ id: accountId }).first('public_ref');
    const hook = await fetch(`${running.url}/webhooks/mollie?account=${publicRef}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `id=${payment.provider_payment_id}`,
    });
    expect(hook.status).toBe(200);
    for (let wait = 0; wait < 50; wait += 1) {
      if ((await t.ctx.db('payments').where({ id: payment.id }).first('status')).status === 'paid') break;
      await sleep(100);
    }
    return { accountId, token, payment };
  }

  async function crashWhileHeld(running: ServiceProcess, send: () => Promise<Response>) {
    const lostRequest = send().then(
      () => 'answered',
      () => 'connection lost',
    );
    await fake.untilHeld();
    await running.crash();
    expect(await lostRequest).toBe('connection lost');
  }

  it('When the service is killed while Mollie holds the refund answer, then after a restart the same key gets that refund', async () => {
    const first = await start();
    const { accountId, token, payment } = await paidPayment(first);
    fake.holdAnswers('POST', /\/refunds$/, 1);
    await crashWhileHeld(first, () => post(first, token, `/api/v2/payments/${payment.id}/refunds`, { amount: 5 }, 'refund-3001'));
    const [kept] = await t.ctx.db('refunds').where({ account_id: accountId });
    expect(kept).toMatchObject({ status: 'creating', provider_refund_id: null });
    expect(fake.refundsOf(payment.provider_payment_id)).toHaveLength(1);

    const second = await start();
    await sleep(LOCK_SECONDS * 1000 + 1100);
    const retry = await post(second, token, `/api/v2/payments/${payment.id}/refunds`, { amount: 5 }, 'refund-3001');
    expect(retry.status).toBe(201);
    const body = (await retry.json()) as { id: string; provider_refund_id: string; status: string };
    expect(body).toMatchObject({ id: kept.id, status: 'pending', provider_refund_id: fake.refundsOf(payment.provider_payment_id)[0]?.id });
    expect(fake.refundsOf(payment.provider_payment_id)).toHaveLength(1);
    expect(await t.ctx.db('refunds').where({ account_id: accountId })).toHaveLength(1);
  });

  it('When the service is killed halfway and the client never comes back, then the job finishes the refund once', async () => {
    const first = await start();
    const { accountId, token, payment } = await paidPayment(first);
    fake.holdAnswers('POST', /\/refunds$/, 1);
    await crashWhileHeld(first, () => post(first, token, `/api/v2/payments/${payment.id}/refunds`, {}, 'refund-3002'));
    const [kept] = await t.ctx.db('refunds').where({ account_id: accountId });
    expect(kept).toMatchObject({ status: 'creating', amount: 2000 });
    await t.ctx
      .db('refunds')
      .where({ id: kept.id })
      .update({ next_attempt_at: toDbDateTime(new Date(Date.now() - 60_000)) });
    fake.releaseHeld();
    const job = await runCliProcess(serviceEnv(), ['jobs', 'run', 'finish-provider-creations']);
    expect(job).toMatchObject({ code: 0, stdout: expect.stringContaining('1 processed, 0 failed') });
    const [finished] = await t.ctx.db('refunds').where({ account_id: accountId });
    expect(finished).toMatchObject({
      id: kept.id,
      status: 'pending',
      provider_refund_id: fake.refundsOf(payment.provider_payment_id)[0]?.id,
    });
    expect(fake.refundsOf(payment.provider_payment_id)).toHaveLength(1);
  });
});
