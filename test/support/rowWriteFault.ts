import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { TestDatabaseKind } from './databases';

/**
 * Every UPDATE of one row (by `id`, or the key `column` names) fails, as it does on MySQL while a stuck
 * transaction holds the row's lock (a lock wait timeout): a trigger refuses it. Answers the undo, the lock released.
 */
export async function refuseUpdatesOf(
  db: Knex,
  kind: TestDatabaseKind,
  table: string,
  id: string,
  column = 'id',
): Promise<() => Promise<void>> {
  // Names and ids go into DDL, which takes no bindings: only plain identifiers are accepted.
  if (!/^\w+$/.test(table) || !/^\w+$/.test(id) || !/^\w+$/.test(column)) throw new Error(`not a plain table or id: ${table} ${id}`);
  const trigger = `refuse_${randomBytes(4).toString('hex')}`;
  if (kind === 'sqlite') {
    await db.raw(
      `CREATE TRIGGER ${trigger} BEFORE UPDATE ON ${table} FOR EACH ROW ` +
        `WHEN OLD.${column} = '${id}' BEGIN SELECT RAISE(ABORT, 'row locked'); END`,
    );
  } else {
    await db.raw(
      `CREATE TRIGGER ${trigger} BEFORE UPDATE ON ` +
        `${table} FOR EACH ROW BEGIN IF OLD.${column} = '${id}' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'row locked'; END IF; END`,
    );
  }
  return async () => {
    await db.raw(`DROP TRIGGER ${trigger}`);
  };
}
