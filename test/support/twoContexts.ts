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
  /** Shared by both, as two servers share the time of day. */
  clock: TestClock;
  logs: MemoryTransport;
  close(): Promise<void>;
}

/** Two service instances against the same fresh database, as several servers against one MySQL. */
export async function createTwoContexts(kind: TestDatabaseKind): Promise<TwoContexts> {
  const database = await createTestDatabase(kind);
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
  // One after the other: the first migrates, the second finds the schema up to date.
  const { ctx: first } = await createContext(config, logger, clock);
  const { ctx: second } = await createContext(config, logger, clock);
  return {
    first,
    second,
    clock,
    logs,
    async close() {
      await Promise.all([first.background.idle(), second.background.idle()]);
      await Promise.all([first.db.destroy(), second.db.destroy()]);
      await database.drop();
    },
  };
}
