import { expectCleanAudit } from './audit';
import type { Express } from 'express';
import request from 'supertest';
import Transport from 'winston-transport';
import { createApp } from '../../src/app';
import { createContext } from '../../src/bootstrap';
import { loadConfig, type Config } from '../../src/config';
import type { AppContext } from '../../src/context';
import { createLogger, type Logger } from '../../src/logger';
import { createToken } from '../../src/modules/accounts/service';
import { TestClock } from './clock';
import { createTestDatabase, type TestDatabaseKind } from './databases';
import { checkAnswersAgainstOpenApi, openApiCheckApplies } from './openApiConformance';

export const TEST_PUBLIC_URL = 'http://rps.test';

/** Collects log lines in memory, for tests that check what is (not) logged. */
export class MemoryTransport extends Transport {
  readonly lines: string[] = [];

  override log(info: unknown, callback: () => void): void {
    this.lines.push(JSON.stringify(info));
    callback();
  }
}

export interface TestApp {
  kind: TestDatabaseKind;
  app: Express;
  ctx: AppContext;
  clock: TestClock;
  logs: MemoryTransport;
  /** A new account (unique name) and a token for it. */
  newAccount(name?: string): Promise<{ accountId: string; token: string }>;
  /**
   * A restart: the running instance stops (its pool closes) and a new one starts on the same
   * database with the same clock. `app` and `ctx` are replaced in place.
   */
  restart(): Promise<void>;
  /** supertest agent helpers carrying a bearer token. */
  as(token: string): AuthedClient;
  close(): Promise<void>;
}

export interface AuthedClient {
  get(path: string): request.Test;
  post(path: string, body?: unknown): request.Test;
  put(path: string, body?: unknown): request.Test;
  patch(path: string, body?: unknown): request.Test;
  delete(path: string): request.Test;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: TestClock;
}

let accountCounter = 0;

/**
 * The test app of a describe block: made before its tests and closed after them, or with `perTest` made
 * anew for each test. What it returns reads through to the app of the moment, so tests say `t.ctx` and
 * `t.as(token)` as with an app of their own; it exists inside hooks and tests only. Its close is declared
 * first, so it runs before the block's own after-hooks (jest runs them in the order declared): a fake the
 * app calls is still there while the app finishes its background work.
 */
export function useTestApp(
  kind: TestDatabaseKind,
  { perTest = false, audited = false, ...options }: TestAppOptions & { perTest?: boolean; audited?: boolean } = {},
): TestApp {
  let current: TestApp | undefined;
  const [before, after] = perTest ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    current = await createTestApp(kind, options);
  });
  // `audited`: the ledger audit of every account must be clean before the app closes (the fault tests end with it).
  after(async () => {
    try {
      if (audited && current) await expectCleanAudit(current.ctx);
    } finally {
      await current?.close();
    }
  });
  const app = (): TestApp => {
    if (!current) throw new Error('useTestApp: the app exists inside hooks and tests only');
    return current;
  };
  return new Proxy({} as TestApp, {
    get: (_target, key) => Reflect.get(app(), key),
    set: (_target, key, value) => Reflect.set(app(), key, value),
  });
}

export async function createTestApp(kind: TestDatabaseKind, options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase(kind, { migrated: true });
  const { config }: { config: Config } = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    APP_KEY: 'base64:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
    PUBLIC_URL: TEST_PUBLIC_URL,
    LOG_LEVEL: 'debug',
    RATE_LIMIT_PER_MINUTE: '100000',
    ...options.env,
  });
  const logs = new MemoryTransport();
  const logger: Logger = createLogger(config.LOG_LEVEL);
  logger.clear();
  logger.add(logs);
  const clock = options.clock ?? new TestClock();
  let { ctx } = await createContext(config, logger, clock);
  let app = createApp(ctx);
  // Every answer from /api/v2 in this file is held against the document the app serves.
  if (openApiCheckApplies()) await checkAnswersAgainstOpenApi(app);
  const authed = (token: string): AuthedClient => {
    const withAuth = (test: request.Test) => test.set('Authorization', `Bearer ${token}`);
    return {
      get: (path) => withAuth(request(app).get(path)),
      post: (path, body) => withAuth(request(app).post(path)).send(body as object),
      put: (path, body) => withAuth(request(app).put(path)).send(body as object),
      patch: (path, body) => withAuth(request(app).patch(path)).send(body as object),
      delete: (path) => withAuth(request(app).delete(path)),
    };
  };
  const testApp: TestApp = {
    kind,
    app,
    ctx,
    clock,
    logs,
    async restart() {
      await ctx.background.idle();
      await Promise.all([ctx.db.destroy(), ctx.rateLimits.close()]);
      ({ ctx } = await createContext(config, logger, clock));
      app = createApp(ctx);
      testApp.ctx = ctx;
      testApp.app = app;
    },
    async newAccount(name) {
      accountCounter += 1;
      const { account, token } = await createToken(ctx.db, clock, name ?? `Shop ${process.pid}-${accountCounter}`);
      return { accountId: account.id, token };
    },
    as: authed,
    async close() {
      await ctx.background.idle();
      await Promise.all([ctx.db.destroy(), ctx.rateLimits.close()]);
      await database.drop();
    },
  };
  return testApp;
}
