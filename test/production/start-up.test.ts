import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nock from 'nock';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../support/databases';
import { freePort } from '../../fakes/ports';
import { runCliProcess, runServiceProcess, startServiceProcess, type ServiceProcess } from '../support/serviceProcess';

// Child processes start (and migrate a database) here; on a busy 2-core CI machine that takes a while.
jest.setTimeout(60_000);

// 127.0.0.2 is loopback too (127.0.0.0/8): the HOST tests listen there, so it is let through as 127.0.0.1 is.
nock.enableNetConnect(/^(127\.0\.0\.[12]|localhost)(:\d+)?$/);

const APP_KEY = 'base64:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=';
const PUBLIC_URL = 'https://pay.example.test';

/** Whether something accepts a TCP connection at host:port (plain sockets: the tests' nock never sees them). */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The non-empty lines of a stream. */
const linesOf = (text: string) => text.split('\n').filter((line) => line !== '');

describe('a production start without what production needs', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'rps-production-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const production = (env: Record<string, string>) =>
    runServiceProcess({
      NODE_ENV: 'production',
      DATABASE_URL: `sqlite:${path.join(dataDir, 'service.sqlite')}`,
      DATA_DIR: dataDir,
      ...env,
    });

  it.each([
    ['APP_KEY', { PUBLIC_URL }],
    ['PUBLIC_URL', { APP_KEY }],
  ])(
    'When NODE_ENV=production and %s is unset, then the service exits 1 with one line naming it, before it writes a key file or a database',
    async (missing, env) => {
      const run = await production(env);
      expect(run.code).toBe(1);
      expect(linesOf(run.stderr)).toEqual([
        expect.stringMatching(new RegExp(`^Missing environment variable ${missing}: required when NODE_ENV=production`)),
      ]);
      expect(run.stdout).toBe('');
      expect(existsSync(path.join(dataDir, 'app.key'))).toBe(false);
      expect(existsSync(path.join(dataDir, 'service.sqlite'))).toBe(false);
    },
  );

  it('When the CLI runs with NODE_ENV=production and no APP_KEY, then it refuses the same way, before it writes a key file', async () => {
    const run = await runCliProcess(
      { NODE_ENV: 'production', DATABASE_URL: `sqlite:${path.join(dataDir, 'service.sqlite')}`, DATA_DIR: dataDir, PUBLIC_URL },
      ['jobs', 'list'],
    );
    expect(run.code).toBe(1);
    expect(linesOf(run.stderr)).toEqual([
      expect.stringMatching(/^Missing environment variable APP_KEY: required when NODE_ENV=production/),
    ]);
    expect(existsSync(path.join(dataDir, 'app.key'))).toBe(false);
  });
});

describe.each(TEST_DATABASES)('starting the service, on %s', (kind) => {
  let database: TestDatabase;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });
  afterAll(() => database.drop());

  const productionEnv = (env: Record<string, string> = {}) => ({
    NODE_ENV: 'production',
    DATABASE_URL: database.url,
    APP_KEY,
    PUBLIC_URL,
    ...env,
  });
  const warningsOf = (running: ServiceProcess) =>
    linesOf(running.output())
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: string; message: string })
      .filter((entry) => entry.level === 'warn')
      .map((entry) => entry.message);

  it('When SANDBOX=on in production, then a warning at start says the sandbox pages exist; without it, no such warning', async () => {
    service = await startServiceProcess(productionEnv({ SANDBOX: 'on' }));
    expect(warningsOf(service)).toEqual([expect.stringMatching(/^SANDBOX=on in production: the \/sandbox checkout pages exist/)]);
    await service.stop();

    service = await startServiceProcess(productionEnv());
    expect(warningsOf(service)).toEqual([]);
  });

  it('When the port is already in use, then the service exits 1 with one line naming the port and PORT, not a stack trace', async () => {
    const port = await freePort();
    const occupant = net.createServer();
    await new Promise<void>((resolve) => occupant.listen(port, resolve));
    try {
      const run = await runServiceProcess(productionEnv({ PORT: String(port) }));
      expect(run.code).toBe(1);
      expect(linesOf(run.stderr)).toEqual([`Could not start: port ${port} is already in use (set PORT to another port)`]);
    } finally {
      await new Promise((resolve) => occupant.close(resolve));
    }
  });

  it('When HOST is set to an address, then the service listens on that address only', async () => {
    service = await startServiceProcess(productionEnv({ HOST: '127.0.0.2' }));
    expect(await accepts('127.0.0.2', service.port)).toBe(true);
    expect(await accepts('127.0.0.1', service.port)).toBe(false);
  });

  it('When HOST is unset, then the service listens on every interface', async () => {
    service = await startServiceProcess(productionEnv());
    expect(await accepts('127.0.0.1', service.port)).toBe(true);
    expect(await accepts('127.0.0.2', service.port)).toBe(true);
  });

  it('When HOST is not an address of this machine, then the service exits 1 with one line naming HOST', async () => {
    // 192.0.2.0/24 is TEST-NET-1: documentation only, never a local address.
    const run = await runServiceProcess(productionEnv({ HOST: '192.0.2.1' }));
    expect(run.code).toBe(1);
    expect(linesOf(run.stderr)).toEqual([
      'Could not start: HOST 192.0.2.1 is not an address of this machine (leave HOST unset to listen on every interface)',
    ]);
  });
});
