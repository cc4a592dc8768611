import type { Knex } from 'knex';
import { migrationSource } from '../../migrations';

/** Brings the schema up to date; returns the names of the migrations it ran. */
export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, ran] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return ran;
}
