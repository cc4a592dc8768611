import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

/** A merchant's endpoint that holds every call until released, counting how many it holds at once. */
async function holdingReceiver() {
  const held: ServerResponse[] = [];
  let most = 0;
  let received = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.once('end', () => {
      received += 1;
      held.push(res);
      most = Math.max(most, held.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/events`,
    get most() {
      return most;
    },
    get received() {
      return received;
    },
    get holding() {
      return held.length;
    },
    releaseAll() {
      for (const res of held.splice(0)) res.writeHead(200).end('ok');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The first attempts of payments' events right after their status changes run a few at a time: a
 * billing run's many changes never pile up as requests (and memory) in the process; each is still
 * delivered once.
 */
describe.each(TEST_DATABASES)('first attempts of events, bounded, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  it('When 24 payments change status at once, then at most 16 first attempts are under way together and each is delivered', async () => {
    const receiver = await holdingReceiver();
    try {
      const { token } = await t.newAccount();
      const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Piet', last_name: 'Bakker', email: 'piet@example.nl' });
      const checkouts: string[] = [];
      for (let index = 0; index < 24; index += 1) {
        const created = await t.as(token).post('/api/v2/payments', {
          amount: 10,
          currency: 'EUR',
          provider_customer_id: customer.body.provider_customer_id,
          description: `Order ${index}`,
          redirect_url: 'https://shop.example/thanks',
          webhook_url: receiver.url,
        });
        expect(created.status).toBe(201);
        checkouts.push(new URL(created.body.provider_checkout_url).pathname);
      }
      await Promise.all(checkouts.map((path) => request(t.app).post(path).type('form').send({ status: 'paid' })));
      for (let waited = 0; receiver.holding < 16 && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(receiver.holding).toBe(16);

      const done = t.ctx.background.idle();
      for (let waited = 0; receiver.received < 24 && waited < 10_000; waited += 20) {
        receiver.releaseAll();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      receiver.releaseAll();
      await done;
      expect(receiver.most).toBe(16);
      expect(receiver.received).toBe(24);
      expect(await t.ctx.db('outbound_events').where({ url: receiver.url, status: 'delivered' })).toHaveLength(24);
    } finally {
      receiver.releaseAll();
      await receiver.close();
    }
  });
});
