import type { Knex } from 'knex';

/**
 * Paged lists without counting or skipping rows: every row of a listed table carries its number in
 * its account's list (`account_seq`: 1, 2, 3, … in creation order, with no gaps), and one row per
 * account and list holds the total. Page N is then a seek on (account_id, account_seq) and the total
 * one primary-key read, at any depth. Triggers keep both in the same transaction as each insert and
 * delete, so every way a row arrives (the API, the store sync, billing, follow-ups, a restore) is
 * numbered, and a rolled-back insert is not. A delete leaves a gap that its caller closes in the same
 * transaction (only unconfirmed customers are ever deleted).
 *
 * On MySQL with binary logging, creating triggers needs the TRIGGER privilege and
 * `log_bin_trust_function_creators=1` (or SUPER) for the migrating user.
 */
const LISTED_TABLES = ['customers', 'products', 'subscriptions', 'payment_links', 'follow_ups', 'orders', 'sync_runs'] as const;

const isMysql = (db: Knex) => db.client.config.client === 'mysql2';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('account_row_counts', (t) => {
    t.string('account_id', 40).notNullable();
    t.string('list_name', 32).notNullable();
    t.bigInteger('total').notNullable();
    t.primary(['account_id', 'list_name']);
  });
  for (const table of LISTED_TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.bigInteger('account_seq').nullable();
    });
    // The rows already there, numbered in creation order, and their totals.
    if (isMysql(db)) {
      await db.raw(
        `UPDATE ?? AS listed JOIN (SELECT seq, ROW_NUMBER() OVER (PARTITION BY account_id ORDER BY seq) AS position FROM ??) AS ` +
          `numbered ON numbered.seq = listed.seq SET listed.account_seq = numbered.position`,
        [table, table],
      );
    } else {
      await db.raw(
        `UPDATE ?? SET account_seq = (SELECT position FROM (SELECT seq, ROW_NUMBER() OVER (PARTITION BY account_id ORDER BY seq) AS ` +
          `position FROM ??) AS numbered WHERE numbered.seq = ??.seq)`,
        [table, table, table],
      );
    }
    await db.raw(
      `INSERT INTO account_row_counts (account_id, list_name, total) SELECT account_id, ?, COUNT(*) FROM ?? GROUP BY account_id`,
      [table, table],
    );
    await db.schema.alterTable(table, (t) => {
      t.unique(['account_id', 'account_seq'], { indexName: `${table}_account_seq_unique` });
    });

    const count = isMysql(db)
      ? `INSERT INTO account_row_counts (account_id, list_name, total) VALUES (NEW.account_id, ` +
        `'${table}', 1) ON DUPLICATE KEY UPDATE total = total + 1`
      : `INSERT INTO account_row_counts (account_id, list_name, total) VALUES (NEW.account_id, ` +
        `'${table}', 1) ON CONFLICT (account_id, list_name) DO UPDATE SET total = total + 1`;
    const position = `(SELECT total FROM account_row_counts WHERE account_id = NEW.account_id AND list_name = '${table}')`;
    const uncount = `UPDATE account_row_counts SET total = total - 1 WHERE account_id = OLD.account_id AND list_name = '${table}'`;
    if (isMysql(db)) {
      // MySQL sets the new row's own column before it is written; the counter row stays locked to commit.
      await db.raw(
        `CREATE TRIGGER ${table}_numbered BEFORE INSERT ON ${table} FOR EACH ROW BEGIN ${count}; SET NEW.account_seq = ${position}; END`,
      );
      await db.raw(`CREATE TRIGGER ${table}_unnumbered AFTER DELETE ON ${table} FOR EACH ROW ${uncount}`);
    } else {
      // SQLite cannot change NEW: the row is numbered right after it is written, in the same statement.
      await db.raw(
        `CREATE TRIGGER ${table}_numbered AFTER INSERT ON ` +
          `${table} BEGIN ${count}; UPDATE ${table} SET account_seq = ${position} WHERE seq = NEW.seq; END`,
      );
      await db.raw(`CREATE TRIGGER ${table}_unnumbered AFTER DELETE ON ${table} BEGIN ${uncount}; END`);
    }
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of LISTED_TABLES) {
    await db.raw(`DROP TRIGGER IF EXISTS ${table}_numbered`);
    await db.raw(`DROP TRIGGER IF EXISTS ${table}_unnumbered`);
    await db.schema.alterTable(table, (t) => {
      t.dropUnique(['account_id', 'account_seq'], `${table}_account_seq_unique`);
    });
    await db.schema.alterTable(table, (t) => {
      t.dropColumn('account_seq');
    });
  }
  await db.schema.dropTable('account_row_counts');
}
