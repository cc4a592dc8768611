import type { Knex } from 'knex';

const isMysql = (db: Knex) => db.client.config.client === 'mysql2';

/**
 * The self-service portal's way in.
 *
 * - `portal_tokens`: single-use links that open a session: made by the API (`session-link`, valid an
 *   hour) or mailed by the log-in page (`login-mail`). Only the SHA-256 of the token is kept; `used_at`
 *   is set by the one conditional UPDATE that claims it, so two uses at once open one session.
 * - `portal_sessions`: a browser's session for one customer of one account, found by the SHA-256 of
 *   its cookie. It ends after 30 minutes without a request (`last_seen_at`), at `expires_at` whatever
 *   happens, or at log-out (`ended_at`).
 * - Both are deleted a day after they expire (the purge-portal-sessions job, by the `expires_at` index).
 * - An index on `customers.email` alone: the log-in page looks an address up across accounts. SQLite
 *   compares it without case (as MySQL's collation does), so the index serves that comparison.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('portal_tokens', (t) => {
    t.string('id', 40).primary();
    t.string('account_id', 40).notNullable().references('id').inTable('accounts');
    t.string('customer_id', 40).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.string('purpose', 16).notNullable();
    t.text('return_url').nullable();
    t.string('locale', 5).nullable();
    t.dateTime('expires_at').notNullable();
    t.dateTime('used_at').nullable();
    t.dateTime('created_at').notNullable();
    t.index(['account_id', 'customer_id']);
    t.index(['expires_at']);
  });
  await db.schema.createTable('portal_sessions', (t) => {
    t.string('id', 40).primary();
    t.string('account_id', 40).notNullable().references('id').inTable('accounts');
    t.string('customer_id', 40).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.string('opened_by_token_id', 40).nullable();
    t.text('return_url').nullable();
    t.string('locale', 5).nullable();
    t.dateTime('last_seen_at').notNullable();
    t.dateTime('expires_at').notNullable();
    t.dateTime('ended_at').nullable();
    t.dateTime('created_at').notNullable();
    t.index(['account_id', 'customer_id']);
    t.index(['expires_at']);
  });
  if (isMysql(db)) {
    await db.schema.alterTable('customers', (t) => t.index(['email'], 'customers_email_index'));
  } else {
    await db.raw('CREATE INDEX `customers_email_index` ON `customers` (`email` COLLATE NOCASE)');
  }
}

export async function down(db: Knex): Promise<void> {
  if (isMysql(db)) await db.schema.alterTable('customers', (t) => t.dropIndex(['email'], 'customers_email_index'));
  else await db.raw('DROP INDEX `customers_email_index`');
  await db.schema.dropTable('portal_sessions');
  await db.schema.dropTable('portal_tokens');
}
