import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { encryptSecret } from '../../src/crypto/secrets';
import { deliverDueMails } from '../../src/mail/delivery';
import { queueMail } from '../../src/mail/queue';
import { smtpTransportFor, type MailTransport } from '../../src/mail/transport';
import { fromDbDateTime, toDbDateTime } from '../../src/time';
import { deliverDueEvents } from '../../src/events/delivery';
import { cli } from '../cli/runInMemory';
import { connectedSimulatorStore } from '../support/connectedStore';
import { TEST_DATABASES } from '../support/databases';
import { startReceiver } from '../support/receiver';
import { refuseUpdatesOf } from '../support/rowWriteFault';
import { SmtpFake } from '../support/smtpFake';
import { useTestApp } from '../support/testApp';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

const HOUR = 60 * 60 * 1000;
const WINDOW = 26 * HOUR;

/** A secret as it was stored under another APP_KEY (a key changed without re-encrypting): it no longer decrypts. */
const undecryptable = () => encryptSecret(randomBytes(32), `whsec_${randomBytes(20).toString('hex')}`);

/**
 * The three outboxes (events to a client's webhook_url, mails, writes to a store) with a poison item
 * at the head of a batch: one whose attempt throws rather than merely failing to send. The items
 * behind it are still sent in that run; the poison one is retried with backoff and ends dead.
 */
describe.each(TEST_DATABASES)('outboxes that never stall, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  const noAbort = new AbortController().signal;

  describe('events to webhook_url', () => {
    /** An account whose payment with a webhook_url the payer paid on the sandbox checkout. */
    async function paidWithWebhook(webhookUrl: string) {
      const { token, accountId } = await t.newAccount();
      const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Piet', last_name: 'Bakker', email: 'piet@example.nl' });
      const created = await t.as(token).post('/api/v2/payments', {
        amount: 25,
        currency: 'EUR',
        provider_customer_id: customer.body.provider_customer_id,
        description: 'Order 77',
        redirect_url: 'https://shop.example/thanks',
        webhook_url: webhookUrl,
      });
      expect(created.status).toBe(201);
      await request(t.app).post(new URL(created.body.provider_checkout_url).pathname).type('form').send({ status: 'paid' });
      await t.ctx.background.idle();
      return { token, accountId, paymentId: String(created.body.id) };
    }

    it(
      'When an event cannot be signed (its secret no longer decrypts) at the head of a batch, then the events behind it are ' +
        'delivered in that run, and it is retried until dead after 26 hours',
      async () => {
        const poisonReceiver = await startReceiver([500, 200]);
        const goodReceiver = await startReceiver([500, 200]);
        try {
          // Both first attempts (right after the change) get a 500: both events wait for the job, the poison one first.
          const poison = await paidWithWebhook(poisonReceiver.url);
          t.clock.advance(1000);
          const good = await paidWithWebhook(goodReceiver.url);
          await t.ctx.db('accounts').where({ id: poison.accountId }).update({ webhook_secret_encrypted: undecryptable() });

          t.clock.advance(60_000);
          expect(await deliverDueEvents(t.ctx, noAbort)).toEqual({ processed: 2, failed: 1 });
          expect(goodReceiver.calls.map((call) => call.answeredWith)).toEqual([500, 200]);
          const deliveries = async (of: { token: string; paymentId: string }) =>
            (await t.as(of.token).get(`/api/v2/payments/${of.paymentId}`)).body.webhook_deliveries;
          expect(await deliveries(good)).toEqual([expect.objectContaining({ status: 'delivered' })]);
          const [retried] = await deliveries(poison);
          expect(retried).toMatchObject({ status: 'pending', attempts: 2, last_status_code: null, last_error: 'not sent' });
          const row = await t.ctx.db('outbound_events').where({ id: retried.id }).first();
          expect(row.next_attempt_at > toDbDateTime(t.clock.now())).toBe(true);

          for (let hour = 0; hour <= 26; hour += 1) {
            t.clock.advance(HOUR);
            await deliverDueEvents(t.ctx, noAbort);
          }
          const [dead] = await deliveries(poison);
          expect(dead).toMatchObject({ status: 'dead', last_error: 'not sent', next_attempt_at: null, delivered_at: null });
          expect(dead.attempts).toBeGreaterThan(2);
          expect(poisonReceiver.calls).toHaveLength(1); // only the attempt before its secret broke
          expect(
            t.logs.lines.some(
              (line) => line.includes('webhook event dead') && line.includes(poison.paymentId) && line.includes('could not be decrypted'),
            ),
          ).toBe(true);
        } finally {
          await Promise.all([poisonReceiver.close(), goodReceiver.close()]);
        }
      },
    );
  });

  describe('mails', () => {
    let smtp: SmtpFake;
    let transport: MailTransport;
    const gone = 'gone@example.nl';

    beforeEach(async () => {
      smtp = new SmtpFake();
      const server = smtpTransportFor({ ...t.ctx.config, SMTP_URL: await smtp.start() });
      if (!server) throw new Error('no transport');
      // The server refuses one mailbox for good, as a real one does for an address that no longer exists.
      transport = {
        sendMail: (message) =>
          message.to === gone
            ? Promise.reject(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }))
            : server.sendMail(message),
      };
    });
    afterEach(() => smtp.stop());

    const queue = (accountId: string, to: string) =>
      queueMail(t.ctx.db, t.ctx, {
        accountId,
        to,
        locale: 'en',
        template: 'link-reminder',
        data: {
          merchantName: 'Bakkerij Jansen',
          customerName: null,
          description: 'Bread',
          amountCents: 250,
          currency: 'EUR',
          url: 'https://pay.example/pay/lnk_1',
          expiresAt: null,
        },
      });
    const mail = (id: string) => t.ctx.db('outgoing_mails').where({ id }).first();

    it(
      'When a mail whose attempt throws (its row locked) heads the batch, then the mails behind it are sent in that run, and it is ' +
        'retried later until failed after 26 hours',
      async () => {
        const { accountId } = await t.newAccount();
        const poison = await queue(accountId, gone);
        t.clock.advance(1000);
        const good = [await queue(accountId, 'anna@example.nl'), await queue(accountId, 'piet@example.nl')];
        const release = await refuseUpdatesOf(t.ctx.db, kind, 'outgoing_mails', poison);

        expect(await deliverDueMails(t.ctx, noAbort, transport)).toEqual({ processed: 2, failed: 1 });
        for (const id of good) expect(await mail(id)).toMatchObject({ status: 'sent', attempts: 1 });
        expect(smtp.received.map((received) => received.to)).toEqual([['anna@example.nl'], ['piet@example.nl']]);
        expect(t.logs.lines.some((line) => line.includes('mail attempt failed') && line.includes(poison))).toBe(true);

        await release();
        const queuedAt = fromDbDateTime((await mail(poison)).created_at);
        expect(await deliverDueMails(t.ctx, noAbort, transport)).toEqual({ processed: 0, failed: 1 });
        const retried = await mail(poison);
        expect(retried).toMatchObject({ status: 'queued', attempts: 1, last_error: 'SMTP server answered 550' });
        expect(retried.next_attempt_at > toDbDateTime(t.clock.now())).toBe(true);
        for (let hour = 0; hour <= 26; hour += 1) {
          t.clock.advance(HOUR);
          await deliverDueMails(t.ctx, noAbort, transport);
        }
        const failed = await mail(poison);
        expect(failed).toMatchObject({ status: 'failed', next_attempt_at: null, last_error: 'SMTP server answered 550' });
        expect(failed.attempts).toBeGreaterThan(2);
        expect(fromDbDateTime(failed.updated_at).getTime()).toBeGreaterThanOrEqual(queuedAt.getTime() + WINDOW);
        expect(smtp.received).toHaveLength(2);
      },
    );
  });

  describe('writes to stores', () => {
    const stores: WooSimulator[] = [];
    afterEach(async () => {
      await t.ctx.background.idle();
      await Promise.all(stores.splice(0).map((store) => store.stop()));
    });

    /** An account with a connected store whose order the payer paid; the write-back's first attempt, right after, is refused with a 500. */
    async function paidStoreOrder(breakStore: (accountId: string) => Promise<void> = async () => undefined) {
      const { token, accountId } = await t.newAccount();
      const store = await connectedSimulatorStore(t, token);
      stores.push(store);
      const [productId] = store.addProducts(1, () => ({ name: 'Coffee beans', price: '7.50', regular_price: '7.50' })) as [number];
      const [shopOrderId] = store.addOrders(1, () => ({
        status: 'pending',
        total: '7.50',
        line_items: [{ id: 1, product_id: productId, quantity: 1, total: '7.50' }],
      })) as [number];
      const customer = (
        await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' })
      ).body;
      const payment = await t.as(token).post('/api/v2/payments', {
        amount: 7.5,
        currency: 'EUR',
        provider_customer_id: customer.provider_customer_id,
        description: `Order ${shopOrderId}`,
        redirect_url: 'https://shop.example/checkout/order-received',
        shop_order_id: shopOrderId,
      });
      expect(payment.status).toBe(201);
      // Three: the client's own quick retries within the attempt get 500s too.
      store.fail('PUT', new RegExp(`/orders/${shopOrderId}$`), 500, 3);
      await breakStore(accountId);
      expect(
        (await request(t.app).post(`/sandbox/checkout/${payment.body.provider_payment_id}`).type('form').send({ status: 'paid' })).status,
      ).toBe(303);
      await t.ctx.background.idle();
      const task = await t.ctx.db('shop_tasks').where({ account_id: accountId }).first();
      expect(task).toMatchObject({ status: 'pending', attempts: 1 });
      return { store, shopOrderId, taskId: String(task.id) };
    }
    const taskOf = (id: string) => t.ctx.db('shop_tasks').where({ id }).first();
    const runJob = async () => (await cli(t.ctx, 'jobs', 'run', 'write-back-to-stores')).out.join('\n');

    it(
      'When a task whose store client throws before sending (its secret no longer decrypts) heads the batch, locked at first, then ' +
        'the tasks behind it are done in that run, and it is retried until dead 26 hours after it was queued',
      async () => {
        const poison = await paidStoreOrder((accountId) =>
          t.ctx.db('shops').where({ account_id: accountId }).update({ consumer_secret_encrypted: undecryptable() }),
        );
        t.clock.advance(1000);
        const good = await paidStoreOrder();
        const release = await refuseUpdatesOf(t.ctx.db, kind, 'shop_tasks', poison.taskId);

        t.clock.advance(60_000);
        expect(await runJob()).toMatch(/^write-back-to-stores: 1 processed, 1 failed/);
        expect(good.store.orders.get(good.shopOrderId)).toMatchObject({ status: 'processing' });
        expect(await taskOf(good.taskId)).toMatchObject({ status: 'done' });

        await release();
        expect(await runJob()).toMatch(/^write-back-to-stores: 0 processed, 1 failed/);
        const retried = await taskOf(poison.taskId);
        expect(retried).toMatchObject({ status: 'pending', attempts: 2, last_error: expect.stringContaining('could not be decrypted') });
        expect(retried.next_attempt_at > toDbDateTime(t.clock.now())).toBe(true);

        // Each attempt at its time: it goes on past the old limit of 12 attempts, to the end of its window.
        const queuedAt = fromDbDateTime(retried.created_at);
        for (let guard = 0; (await taskOf(poison.taskId)).status === 'pending'; guard += 1) {
          expect(guard).toBeLessThan(30);
          t.clock.set(fromDbDateTime((await taskOf(poison.taskId)).next_attempt_at));
          await runJob();
        }
        const dead = await taskOf(poison.taskId);
        expect(dead).toMatchObject({ status: 'dead', last_error: expect.stringContaining('could not be decrypted') });
        expect(dead.attempts).toBeGreaterThan(12);
        expect(t.clock.now().getTime()).toBe(queuedAt.getTime() + WINDOW);
        const given = t.logs.lines.filter((line) => line.includes('store update given up'));
        expect(given).toHaveLength(1);
        expect(JSON.parse(given[0] ?? '{}')).toMatchObject({
          level: 'error',
          taskId: poison.taskId,
          attempts: dead.attempts,
          reason: expect.stringContaining('could not be decrypted'),
        });
        expect(given[0]).not.toMatch(/anna|vries/i);
        expect(poison.store.orders.get(poison.shopOrderId)).toMatchObject({ status: 'pending' });
      },
    );

    it(
      'When the store refuses a write, then the log says what kind of failure it was, not the store’s own words; the task keeps ' + 'them',
      async () => {
        const { taskId } = await paidStoreOrder();
        const task = await taskOf(taskId);
        expect(task.last_error).toContain('simulated 500');
        const warned = t.logs.lines.filter((line) => line.includes('store update failed') && line.includes(taskId));
        expect(warned).toHaveLength(1);
        expect(JSON.parse(warned[0] ?? '{}')).toMatchObject({ reason: 'server_error (HTTP 500)' });
        expect(warned[0]).not.toContain('simulated');
      },
    );
  });
});
