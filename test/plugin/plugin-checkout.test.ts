import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { webhookSecretOf } from '../../src/events/secret';
import { deliverDueEvents } from '../../src/events/delivery';
import { TEST_DATABASES } from '../support/databases';
import { TestClock } from '../support/clock';
import { createTestApp, type TestApp } from '../support/testApp';
import { WooSimulator } from '../../fakes/woocommerce/simulator';
import { inProcessWebhooks } from '../support/connectedStore';
import { freePort } from '../../fakes/ports';

/**
 * The plugin's PHP against the real service: the gateway (in a stub WordPress served by `php -S`)
 * makes the payment, the buyer pays on the sandbox checkout, the service delivers its signed event to
 * the plugin's callback, and the stub order is completed once — also when the event comes again.
 * CI installs php-cli (.ci/run); without php these tests are skipped, saying so.
 */
const PLUGIN = path.resolve(__dirname, '../../plugin-bridge');
const hasPhp = spawnSync('php', ['--version']).status === 0;
const describeWithPhp = hasPhp ? describe : describe.skip;
if (!hasPhp) console.warn('plugin end-to-end tests skipped: php is not installed (apt-get install php-cli)');

const noAbort = new AbortController().signal;

/** `php -S` with the plugin's router, answering once it accepts connections. */
async function startPhp(stateFile: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn('php', ['-S', `127.0.0.1:${port}`, path.join(PLUGIN, 'tests/e2e/router.php')], {
    env: { ...process.env, RPS_E2E_STATE: stateFile },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const up = await fetch(`${url}/ping`).then(
      () => true,
      () => false,
    );
    if (up) return { url, process: child };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill();
  throw new Error('php -S did not start');
}

interface StubOrder {
  status: string;
  transaction_id: string;
  payment_complete_calls: number;
  paid_by_callback: number;
  notes: string[];
  meta: Record<string, unknown>;
}

describeWithPhp.each(TEST_DATABASES)('the plugin against the service, on %s', (kind) => {
  let t: TestApp;
  let service: Server;
  let store: WooSimulator;
  let php: { url: string; process: ChildProcess };
  let dir: string;
  let stateFile: string;
  let token: string;
  let accountId: string;
  let shopOrderId: number;

  const state = () =>
    JSON.parse(readFileSync(stateFile, 'utf8')) as { orders: Record<string, StubOrder>; logs: string[][]; notices: string[][] };
  const stubOrder = () => state().orders[String(shopOrderId)] as StubOrder;

  beforeEach(async () => {
    // The plugin checks the signature's time against its own clock: the service's stands at now.
    t = await createTestApp(kind, { clock: new TestClock(new Date()) });
    ({ token, accountId } = await t.newAccount());
    service = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => service.once('listening', resolve));
    const serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;

    store = new WooSimulator();
    store.transport = inProcessWebhooks(() => t.app);
    await store.start();
    const connected = await t
      .as(token)
      .post('/api/v2/shop', { url: store.url, consumer_key: store.consumerKey, consumer_secret: store.consumerSecret });
    expect(connected.status).toBe(200);
    const [productId] = store.addProducts(1, () => ({ name: 'Coffee beans', price: '9.99', regular_price: '9.99' }));
    [shopOrderId] = store.addOrders(1, () => ({
      status: 'pending',
      total: '19.98',
      line_items: [{ id: 1, product_id: productId, quantity: 2, total: '19.98' }],
    })) as [number];

    dir = mkdtempSync(path.join(tmpdir(), 'rps-plugin-'));
    stateFile = path.join(dir, 'state.json');
    php = await startPhp(stateFile);
    // The stub WordPress: the plugin connected to the service (what "Connect this store" leaves), one pending order.
    writeFileSync(
      stateFile,
      JSON.stringify({
        home_url: php.url,
        options: {
          rps_connection: {
            service_url: serviceUrl,
            api_token: token,
            event_signing_secret: connected.body.event_signing_secret,
            store_connected: 'yes',
            rest_key_id: 0,
          },
          woocommerce_rps_settings: { enabled: 'yes', title: 'Pay online' },
        },
        orders: {
          [shopOrderId]: {
            id: shopOrderId,
            order_key: 'wc_order_e2e',
            total: '19.98',
            currency: 'EUR',
            billing: { first_name: 'Anna', last_name: 'Bakker', email: 'anna@example.nl' },
          },
        },
      }),
    );
  });

  afterEach(async () => {
    php.process.kill();
    await t.ctx.background.idle();
    await store.stop();
    await new Promise((resolve) => service.close(resolve));
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const checkout = async () => {
    const res = await fetch(`${php.url}/e2e/checkout?order=${shopOrderId}`, { method: 'POST' });
    expect(res.status).toBe(200);
    return (await res.json()) as { result: string; redirect?: string; notices: string[][] };
  };

  it(
    'When a buyer pays through the plugin, then the service makes the payment for the store order, delivers its signed event, and ' +
      'the order is completed once',
    async () => {
      const started = await checkout();
      expect(started).toMatchObject({ result: 'success', notices: [] });
      const checkoutPath = new URL(started.redirect as string).pathname;
      expect(checkoutPath).toMatch(/^\/sandbox\/checkout\/tr_/);

      const payment = await t.ctx.db('payments').where({ account_id: accountId }).first();
      expect(payment).toMatchObject({
        purpose: 'order',
        amount: 1998,
        status: 'open',
        webhook_url: `${php.url}/wc-api/rps_payment/?order_id=${shopOrderId}&key=wc_order_e2e`,
      });
      const customer = await t.ctx.db('customers').where({ account_id: accountId, id: payment.customer_id }).first();
      expect(customer.email).toBe('anna@example.nl');

      // The buyer clicks again before paying: back to the same checkout, no second payment.
      expect((await checkout()).redirect).toBe(started.redirect);
      expect(await t.ctx.db('payments').where({ account_id: accountId }).count({ n: '*' })).toEqual([{ n: 1 }]);

      const paid = await request(t.app).post(checkoutPath).type('form').send({ status: 'paid' });
      expect(paid.status).toBe(303);
      expect(paid.headers.location).toBe(`${php.url}/checkout/order-received/${shopOrderId}/?key=wc_order_e2e`);
      // The service delivers its signed event to the plugin's callback right after the payment settles.
      await t.ctx.background.idle();
      await deliverDueEvents(t.ctx, noAbort);
      const delivered = await t.ctx.db('outbound_events').where({ account_id: accountId, payment_id: payment.id, event: 'payment.paid' });
      expect(delivered).toEqual([expect.objectContaining({ status: 'delivered', last_status_code: 200 })]);
      expect(stubOrder()).toMatchObject({
        status: 'processing',
        transaction_id: payment.provider_payment_id,
        payment_complete_calls: 1,
        paid_by_callback: 1,
      });

      // The same event again (delivery is at least once), signed as the service signs: nothing more.
      const body = JSON.stringify({ id: payment.id, event: 'payment.paid', status: 'paid' });
      const at = Math.floor(Date.now() / 1000);
      const signature = createHmac('sha256', await webhookSecretOf(t.ctx, accountId))
        .update(`${at}.${body}`)
        .digest('hex');
      const again = await fetch(payment.webhook_url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Signature': `t=${at},v1=${signature}` },
        body,
      });
      expect(again.status).toBe(200);
      expect(stubOrder()).toMatchObject({ status: 'processing', payment_complete_calls: 1, paid_by_callback: 1 });
      expect(stubOrder().notes).toHaveLength(1);

      // The store was told by the service too (write-back): one paid order, in both places.
      expect(store.orders.get(shopOrderId)).toMatchObject({ status: 'processing' });
    },
  );

  it(
    'When WordPress dies after the service made the payment but before the order recorded it, then the next checkout gets the same ' +
      'payment, not a second one',
    async () => {
      const first = await checkout();
      // The crash: the order as it was saved before the service was asked (the attempt, no payment yet).
      const stub = JSON.parse(readFileSync(stateFile, 'utf8'));
      const meta = stub.orders[shopOrderId].meta as Record<string, unknown>;
      expect(meta._rps_attempt).toBe(1);
      stub.orders[shopOrderId].meta = { _rps_attempt: 1 };
      writeFileSync(stateFile, JSON.stringify(stub));

      const again = await checkout();
      expect(again).toMatchObject({ result: 'success', redirect: first.redirect });
      expect(await t.ctx.db('payments').where({ account_id: accountId }).count({ n: '*' })).toEqual([{ n: 1 }]);
      expect(stubOrder().meta._rps_payment_ids).toEqual([meta._rps_payment_id]);
    },
  );

  it('When a callback is not signed by the service, then it is refused and the order stays unpaid', async () => {
    await checkout();
    const payment = await t.ctx.db('payments').where({ account_id: accountId }).first();
    const body = JSON.stringify({ id: payment.id, event: 'payment.paid', status: 'paid' });
    const at = Math.floor(Date.now() / 1000);
    const forged = createHmac('sha256', 'whsec_not_the_secret').update(`${at}.${body}`).digest('hex');
    const res = await fetch(payment.webhook_url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Signature': `t=${at},v1=${forged}` },
      body,
    });
    expect(res.status).toBe(401);
    expect(stubOrder()).toMatchObject({ status: 'pending', payment_complete_calls: 0 });
    expect(state().logs).toEqual([['warning', `Refused a payment callback for order ${shopOrderId}: bad or missing signature`]]);
  });

  it(
    'When the service refuses the payment (the order total changed in the store), then the buyer sees a friendly notice and the ' +
      'reason is logged',
    async () => {
      const stub = JSON.parse(readFileSync(stateFile, 'utf8'));
      stub.orders[shopOrderId].total = '25.00';
      writeFileSync(stateFile, JSON.stringify(stub));
      const started = await checkout();
      expect(started).toMatchObject({
        result: 'failure',
        notices: [['The payment could not be started. Please check your details or choose another payment method.', 'error']],
      });
      expect(state().logs).toEqual([['error', expect.stringMatching(/HTTP 422 .*amount/)]]);
      expect(await t.ctx.db('payments').where({ account_id: accountId }).count({ n: '*' })).toEqual([{ n: 0 }]);
    },
  );
});
