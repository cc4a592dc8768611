import { createContext } from '../../src/bootstrap';
import { loadConfig } from '../../src/config';
import type { AppContext } from '../../src/context';
import { createLogger } from '../../src/logger';
import { TestClock } from './clock';
import { createTestDatabase, type TestDatabaseKind } from './databases';
import { MemoryTransport, TEST_PUBLIC_URL } from './testApp';

export interface TwoContexts {
  /** Two instances of the service: each its own context and connection pool, one database. */
  first: AppContext;
  second: AppContext;
  /** Shared by both, as two servers share the time of day; the first's own clock with `ownClocks`. */
  clock: TestClock;
  /** The second's clock: the same object as `clock` unless `ownClocks` gave each instance its own. */
  secondClock: TestClock;
  logs: MemoryTransport;
  close(): Promise<void>;
}

export interface TwoContextsOptions {
  /** Each instance its own clock, to set them apart as servers whose clocks have drifted. */
  ownClocks?: boolean;
}

/** Two service instances against the same fresh database, as several servers against one MySQL. */
export async function createTwoContexts(kind: TestDatabaseKind, options: TwoContextsOptions = {}): Promise<TwoContexts> {
  const database = await createTestDatabase(kind, { migrated: true });
  const { config } = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    APP_KEY: 'base64:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
    PUBLIC_URL: TEST_PUBLIC_URL,
    LOG_LEVEL: 'debug',
  });
  const logs = new MemoryTransport();
  const logger = createLogger(config.LOG_LEVEL);
  logger.clear();
  logger.add(logs);
  const clock = new TestClock();
  const secondClock = options.ownClocks ? new TestClock() : clock;
  // One after the other: the first migrates, the second finds the schema up to date.
  const { ctx: first } = await createContext(config, logger, clock);
  const { ctx: second } = await createContext(config, logger, secondClock);
  return {
    first,
    second,
    clock,
    secondClock,
    logs,
    async close() {
      await Promise.all([first.background.idle(), second.background.idle()]);
      await Promise.all([first.db.destroy(), second.db.destroy()]);
      await database.drop();
    },
  };
}
