import request from 'supertest';
import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { deliverDueEvents } from '../../src/events/delivery';
import { TEST_MOLLIE_KEY } from '../support/mollieNock';
import { TEST_DATABASES } from '../support/databases';
import { seededRandom, type MollieFake } from '../../fakes/mollie/fake';
import { fakeMollieOnClock } from '../../fakes/mollie/nock';
import { startReceiver } from '../support/receiver';
import { seedCustomer } from '../support/seed';
import { useTestApp } from '../support/testApp';

const PAYMENTS = 20;
const CALLS = 100;

/**
 * Mollie calls more than once for one state and its calls overtake each other. 100 calls for 20
 * payments, duplicated and shuffled, while the payments move on at Mollie (open → pending → paid,
 * open → failed, open → expired): each payment ends in Mollie's final state, its history only moves
 * forward, and each status change is one event to the client's webhook_url — none twice as new.
 */
describe.each(TEST_DATABASES)('duplicate and out-of-order provider webhooks, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true, audited: true });
  let fake: MollieFake;
  let served: { stop(): void };
  beforeEach(async () => {
    ({ fake, ...served } = fakeMollieOnClock(t.clock));
  });
  afterEach(async () => {
    served.stop();
  });

  it(
    'When 100 duplicated and shuffled calls arrive while payments move on, then every payment ends right and every change is one ' +
      'event',
    async () => {
      const receiver = await startReceiver([200]);
      try {
        const name = `Webhooks ${randomBase62(8)}`;
        const { accountId, token } = await t.newAccount(name);
        await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
        const customer = await seedCustomer(t.ctx.db, accountId, { provider_customer_id: 'cst_webhooks1' });
        fake.customers.set(String(customer.provider_customer_id), { resource: 'customer', id: customer.provider_customer_id });
        const { public_ref: ref } = await t.ctx.db('accounts').where({ id: accountId }).first('public_ref');

        const made: Array<{ id: string; trId: string; path: string[] }> = [];
        const paths = [['pending', 'paid'], ['failed'], ['expired'], ['paid']];
        for (let index = 0; index < PAYMENTS; index += 1) {
          const res = await t.as(token).post('/api/v2/payments', {
            amount: 10,
            currency: 'EUR',
            provider_customer_id: customer.provider_customer_id,
            description: `Order ${index}`,
            redirect_url: 'https://shop.example/thanks',
            webhook_url: receiver.url,
          });
          expect(res.status).toBe(201);
          made.push({ id: res.body.id, trId: res.body.provider_payment_id, path: paths[index % paths.length] as string[] });
        }

        // Each call names a payment; between calls, payments take their next step at Mollie.
        const random = seededRandom(42);
        const calls = Array.from({ length: CALLS }, (_, index) => made[index % PAYMENTS] as (typeof made)[number]).sort(
          () => random() - 0.5,
        );
        // Steps of different payments interleave at random; each payment's own steps keep their order.
        const remaining = made.map((payment) => payment.path.map((status) => ({ trId: payment.trId, status })));
        const steps: Array<{ trId: string; status: string }> = [];
        while (remaining.some((queue) => queue.length)) {
          const open = remaining.filter((queue) => queue.length);
          steps.push(
            (open[Math.floor(random() * open.length)] as Array<{ trId: string; status: string }>).shift() as {
              trId: string;
              status: string;
            },
          );
        }
        for (let index = 0; index < calls.length; index += 10) {
          const step = steps.shift();
          if (step) fake.setPaymentStatus(step.trId, step.status);
          await Promise.all(
            calls.slice(index, index + 10).map((call) =>
              request(t.app)
                .post(`/webhooks/mollie?account=${String(ref)}`)
                .type('form')
                .send({ id: call.trId })
                .expect(200),
            ),
          );
        }
        for (const step of steps) fake.setPaymentStatus(step.trId, step.status);
        // The last word: Mollie calls once more for each payment in its final state.
        await Promise.all(
          made.map((payment) =>
            request(t.app)
              .post(`/webhooks/mollie?account=${String(ref)}`)
              .type('form')
              .send({ id: payment.trId })
              .expect(200),
          ),
        );
        await t.ctx.background.idle();
        await deliverDueEvents(t.ctx, new AbortController().signal);

        const order = ['open', 'pending', 'paid', 'failed', 'expired'];
        for (const payment of made) {
          const read = (await t.as(token).get(`/api/v2/payments/${payment.id}`)).body as {
            status: string;
            status_history: Array<{ status: string }>;
          };
          const final = payment.path.at(-1) as string;
          expect({ id: payment.id, status: read.status }).toEqual({ id: payment.id, status: final });
          const history = read.status_history.map((change) => change.status);
          expect(new Set(history).size).toBe(history.length);
          expect(history[0]).toBe('open');
          expect(history.at(-1)).toBe(final);
          expect([...history].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(history);
        }
        const events = await t.ctx.db('outbound_events').where({ account_id: accountId });
        const byPaymentAndEvent = new Map<string, number>();
        for (const event of events)
          byPaymentAndEvent.set(
            `${event.payment_id} ${event.event}`,
            (byPaymentAndEvent.get(`${event.payment_id} ${event.event}`) ?? 0) + 1,
          );
        expect([...byPaymentAndEvent.values()].every((count) => count === 1)).toBe(true);
        expect(events.every((event: { status: string }) => event.status === 'delivered')).toBe(true);
        const deliveredIds = receiver.calls.map((call) => String(call.headers['x-event-id']));
        expect(new Set(deliveredIds).size).toBe(deliveredIds.length);
        expect(deliveredIds.length).toBe(events.length);
      } finally {
        await receiver.close();
      }
    },
  );
});
