import type { Config } from './config';
import type { AppContext } from './context';
import { connectDatabase } from './db/connect';
import { migrateLatest } from './db/migrate';
import type { Logger } from './logger';
import { createProviderRegistry } from './providers';
import { systemClock, type Clock } from './time';

/** Connects, migrates and wires the context shared by the server, the CLI and the tests. */
export async function createContext(config: Config, logger: Logger, clock: Clock = systemClock): Promise<AppContext> {
  const db = connectDatabase(config.DATABASE_URL);
  const ran = await migrateLatest(db);
  if (ran.length) logger.info('database migrated', { migrations: ran });
  const providers = createProviderRegistry({ db, clock, publicUrl: config.publicUrl });
  return { db, config, logger, clock, providers };
}
