import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { seedCustomer } from '../support/seed';
import { createTestApp, useTestApp, type TestApp } from '../support/testApp';

/**
 * Where requests are counted: in memory by default (each instance its own count, nothing written to
 * the database), in Redis with REDIS_URL (instances share one limit). A restart stands in for a
 * second instance. The Redis tests need TEST_REDIS_URL (CI sets it); without it they are skipped.
 */
const REDIS = process.env.TEST_REDIS_URL;
const describeWithRedis = REDIS ? describe : describe.skip;
if (!REDIS) console.warn('Redis rate-limit tests skipped: TEST_REDIS_URL is not set');

async function limitedTwice(t: TestApp, token: string): Promise<void> {
  for (const remaining of ['2', '1']) {
    const res = await t.as(token).get('/api/v2/customers');
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe(remaining);
  }
}

describe('rate limit counted in memory (the default)', () => {
  const t = useTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '3' } });

  it('When requests are counted, then nothing is written to the database and each instance keeps its own count', async () => {
    const { token } = await t.newAccount();
    await limitedTwice(t, token);
    expect(await t.ctx.db.schema.hasTable('rate_limit_windows')).toBe(false);
    await t.restart();
    expect((await t.as(token).get('/api/v2/customers')).headers['x-ratelimit-remaining']).toBe('2');
  });
});

describeWithRedis('rate limit counted in Redis (REDIS_URL)', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('When a second instance serves the same token, then it counts on from the first one’s requests and refuses the 4th', async () => {
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '3', REDIS_URL: REDIS as string } });
    const { token } = await t.newAccount();
    await limitedTwice(t, token);
    await t.restart();
    const third = await t.as(token).get('/api/v2/customers');
    expect(third.status).toBe(200);
    expect(third.headers['x-ratelimit-remaining']).toBe('0');
    const fourth = await t.as(token).get('/api/v2/customers');
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('When a second instance serves a log-in for the same address, then the address’s turn holds there too: one mail', async () => {
    t = await createTestApp('sqlite', { env: { REDIS_URL: REDIS as string } });
    const { accountId } = await t.newAccount();
    const email = `redis.${process.pid}.${Date.now()}@example.nl`;
    await seedCustomer(t.ctx.db, accountId, { email });
    const ask = async () => {
      expect((await request(t.app).post('/portal').type('form').send({ email })).status).toBe(200);
      await t.ctx.background.idle();
    };
    await ask();
    await t.restart();
    await ask();
    expect(await t.ctx.db('outgoing_mails').where({ recipient: email })).toHaveLength(1);
  });

  it('When Redis stops answering, then requests are still served and the outage is logged once, without the address', async () => {
    // A proxy in front of Redis that the test can cut.
    const target = new URL(REDIS as string);
    const sockets = new Set<Socket>();
    const proxy: Server = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      sockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const drop = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const via = new URL(REDIS as string);
    via.host = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '3', REDIS_URL: via.toString() } });
    const { token } = await t.newAccount();
    expect((await t.as(token).get('/api/v2/customers')).status).toBe(200);

    const closed = new Promise<void>((resolve) => proxy.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
    for (let i = 0; i < 5; i += 1) expect((await t.as(token).get('/api/v2/customers')).status).toBe(200);
    const outages = t.logs.lines.filter((line) => line.includes('Redis'));
    expect(outages).toHaveLength(1);
    expect(JSON.parse(outages[0] as string)).toMatchObject({ level: 'error' });
    expect(outages[0]).not.toContain(via.host);
  });
});
