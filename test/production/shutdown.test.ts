import { once } from 'node:events';
import net from 'node:net';
import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { calendarDateIn } from '../../src/time';
import { TEST_MOLLIE_KEY } from '../support/mollieNock';
import { seedBillableSubscriptions } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveOverHttps } from '../../fakes/mollie/https';
import { startServiceProcess, type ServiceProcess } from '../support/serviceProcess';
import { useTestApp } from '../support/testApp';

// Child processes start and stop here; on a busy 2-core CI machine that takes longer than the default.
jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  connection: string | undefined;
  body: Record<string, unknown>;
}

/**
 * An HTTP/1.1 request on a connection of its own, kept alive as a client's connection pool keeps it;
 * written on a plain socket, so no client library (nor the tests' nock) changes its headers.
 */
async function sendKeepingAlive(
  port: number,
  request: { method: string; path: string; headers?: Record<string, string>; body?: unknown; halfway?: boolean },
) {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const closed = once(socket, 'close');
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  const headers = {
    Host: 'rps.test',
    Connection: 'keep-alive',
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    ...request.headers,
  };
  const head = `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}`;
  // Halfway: the headers are being received, the blank line that ends them not yet; `finish` sends the rest.
  const rest = `\r\n${body}`;
  socket.write(request.halfway ? head : head + rest);
  const finish = () => socket.write(rest);
  const answer = new Promise<Answer | 'connection lost'>((resolve) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      const [head = '', text = ''] = received.split('\r\n\r\n', 2);
      const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim();
      if (text.length < Number(header('Content-Length') ?? Number.POSITIVE_INFINITY)) return;
      resolve({ status: Number(head.split(' ')[1]), connection: header('Connection'), body: JSON.parse(text) as Record<string, unknown> });
    });
    socket.on('close', () => resolve('connection lost'));
    socket.on('error', () => resolve('connection lost'));
  });
  return { answer, closed, finish };
}

/** A keep-alive connection that had its answer and now waits for the next request, as pooled ones do. */
async function idleKeepAliveConnection(port: number): Promise<{ closed: Promise<unknown> }> {
  const { answer, closed } = await sendKeepingAlive(port, { method: 'GET', path: '/healthz' });
  expect(await answer).toEqual({ status: 200, connection: 'keep-alive', body: { status: 'ok' } });
  return { closed };
}

/** Whether a new connection to the port is refused by the kernel: nothing listens there any more. */
function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/**
 * The built service as an operator runs it (NODE_ENV=production), stopped by SIGTERM while a request
 * waits for Mollie's answer (the fake holds it): what is in flight is answered normally, nothing new
 * gets in, and the database closes only after the last answer — or the deadline ends it all.
 */
describe.each(TEST_DATABASES)('a SIGTERM to the running service, on %s', (kind) => {
  const t = useTestApp(kind);
  let fake: MollieFake;
  let mollie: { apiUrl: string; close(): Promise<void> };
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    fake = new MollieFake('');
    mollie = await serveOverHttps(fake);
  });
  afterEach(async () => {
    fake.heal();
    fake.releaseHeld();
    await service?.stop();
    service = undefined;
  });
  afterAll(async () => {
    await mollie.close();
  });

  const start = async (shutdownTimeoutMs: number, env: Record<string, string> = {}) => {
    service = await startServiceProcess({
      NODE_ENV: 'production',
      DATABASE_URL: t.ctx.config.DATABASE_URL,
      APP_KEY: `base64:${t.ctx.config.appKey.toString('base64')}`,
      PUBLIC_URL: 'https://pay.example.test',
      SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs),
      LOG_LEVEL: 'info',
      // For this child only: the fake's certificate is self-signed.
      NODE_TLS_REJECT_UNAUTHORIZED: '0',
      ...env,
    });
    return service;
  };

  async function accountAtFake(): Promise<{ accountId: string; token: string }> {
    const name = `Shutdown ${randomBase62(8)}`;
    const account = await t.newAccount(name);
    await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false, mollieApiUrl: mollie.apiUrl });
    return account;
  }

  /** Creating a customer, answered only once the test releases Mollie's answer: a request in flight. */
  async function customerInFlight(running: ServiceProcess, token: string) {
    fake.holdAnswers('POST', /^\/v2\/customers$/, 1);
    let settled = false;
    const { answer, closed } = await sendKeepingAlive(running.port, {
      method: 'POST',
      path: '/api/v2/customers',
      headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': `key-${randomBase62(8)}` },
      body: { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' },
    });
    void answer.then(() => (settled = true));
    await fake.untilHeld();
    return { answer, closed, settled: () => settled };
  }

  it(
    'When SIGTERM arrives while a request waits for Mollie, then new connections are refused and idle keep-alive ones closed at ' +
      'once, the request gets its normal answer, and the process exits 0',
    async () => {
      const { token } = await accountAtFake();
      const running = await start(20_000);
      const idle = await idleKeepAliveConnection(running.port);
      const inFlight = await customerInFlight(running, token);
      const arriving = await sendKeepingAlive(running.port, { method: 'GET', path: '/healthz', halfway: true });

      const exited = running.stop();
      await idle.closed;
      while (!(await refusesConnections(running.port))) await sleep(20);
      expect(inFlight.settled()).toBe(false); // all of the above happened while the request was in flight

      // A request whose headers were still arriving is in flight too: answered, then its connection closed.
      arriving.finish();
      expect(await arriving.answer).toEqual({ status: 200, connection: 'close', body: { status: 'ok' } });
      await arriving.closed;

      fake.releaseHeld();
      const answer = await inFlight.answer;
      // Its answer needed the database after Mollie's: it was still open. Its connection closes after it.
      expect(answer).toEqual({
        status: 201,
        connection: 'close',
        body: expect.objectContaining({
          id: expect.stringMatching(/^cus_/),
          provider_customer_id: fake.customersWithReference(String((answer as Answer).body.id))[0]?.id,
        }),
      });
      await inFlight.closed;
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(running.output()).toContain('shutting down: database closed; bye');
      expect(running.output()).not.toContain('"level":"error"');
    },
  );

  it(
    'When a request is still in flight at SHUTDOWN_TIMEOUT_MS, then the process exits 1 at that deadline, the client loses its ' +
      'connection without an answer (no 500), and the log says what was left',
    async () => {
      const { token } = await accountAtFake();
      const running = await start(1500);
      const inFlight = await customerInFlight(running, token);

      const sent = Date.now();
      const exit = await running.stop();
      const took = Date.now() - sent;

      expect(exit).toEqual({ code: 1, signal: null });
      expect(took).toBeGreaterThanOrEqual(1500);
      expect(took).toBeLessThan(1500 + 5000);
      expect(await inFlight.answer).toBe('connection lost');
      const deadlineLine = running
        .output()
        .split('\n')
        .find((line) => line.includes('shutdown took longer than SHUTDOWN_TIMEOUT_MS'));
      expect(JSON.parse(deadlineLine ?? '{}')).toMatchObject({
        level: 'error',
        timeoutMs: 1500,
        waitingFor: 'requests in flight and running jobs',
        requestsInFlight: 1,
      });
    },
  );

  it(
    'When a job is running at SIGTERM, then it is asked to stop at 60 % of SHUTDOWN_TIMEOUT_MS and the shutdown ends before the ' +
      'deadline, instead of waiting 20 s for it',
    async () => {
      const { accountId } = await accountAtFake();
      // Started yesterday (the child bills by the real clock): its first charge is due.
      await seedBillableSubscriptions(t.ctx.db, accountId, 1, {
        startDate: calendarDateIn(new Date(Date.now() - 86_400_000), 'Europe/Amsterdam'),
      });
      for (const customer of await t.ctx.db('customers').where({ account_id: accountId })) {
        fake.customers.set(customer.provider_customer_id, { resource: 'customer', id: customer.provider_customer_id });
      }
      fake.holdAnswers('POST', /^\/v2\/payments/, 1);
      // The billing run every second: its charge then waits for Mollie's answer.
      const running = await start(2000, { CRON: 'on', BILLING_CRON: '* * * * * *' });
      await fake.untilHeld();

      const sent = Date.now();
      const exit = await running.stop();
      const took = Date.now() - sent;

      const asked = running
        .output()
        .split('\n')
        .find((line) => line.includes('asking them to stop'));
      expect(JSON.parse(asked ?? '{}')).toMatchObject({
        level: 'warn',
        message: 'jobs still running after the grace period; asking them to stop',
      });
      expect(took).toBeGreaterThanOrEqual(1200);
      // The job, still waiting for Mollie, is no longer waited for at 80 %: the rest finishes before the deadline.
      expect(exit).toEqual({ code: 0, signal: null });
    },
  );
});
