import type { Knex } from 'knex';
import type { BackgroundTasks } from './background';
import type { Config } from './config';
import type { Logger } from './logger';
import type { Clock } from './time';
import type { ProviderRegistry } from './providers';

/** What every service needs, built once at start and passed explicitly (no module-level singletons). */
export interface AppContext {
  db: Knex;
  config: Config;
  logger: Logger;
  clock: Clock;
  providers: ProviderRegistry;
  background: BackgroundTasks;
}

/** The authenticated caller: every query is scoped by `account.id`. */
export interface Account {
  id: string;
  name: string;
  bookkeeping_system: string | null;
  /** Opaque reference used in public URLs (the provider webhook), so ids never appear there. */
  public_ref: string;
}
