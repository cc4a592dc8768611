import type { AppContext } from '../context';

export interface CliEnvironment {
  ctx: AppContext;
  /**
   * Migrations that already ran while the database was opened. Opening migrates, so `migrate`
   * reports these too, beside what it runs itself.
   */
  migratedOnOpen?: string[];
}
