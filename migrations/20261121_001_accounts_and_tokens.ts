import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('accounts', (t) => {
    t.string('id', 40).primary();
    t.string('name', 191).notNullable().unique();
    // Set when the account is connected to an external bookkeeping system; makes workflow_id and
    // docstyle_id required on subscriptions.
    t.string('bookkeeping_system', 64).nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
  });
  await db.schema.createTable('api_tokens', (t) => {
    t.string('id', 40).primary();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('prefix', 16).notNullable().unique();
    // SHA-256 of the whole token; the token itself is never stored.
    t.string('token_hash', 64).notNullable().unique();
    t.dateTime('created_at').notNullable();
    t.dateTime('last_used_at').nullable();
    t.dateTime('revoked_at').nullable();
    t.index(['account_id', 'created_at']);
  });
  await db.schema.createTable('rate_limit_windows', (t) => {
    t.string('token_id', 40).notNullable();
    t.bigInteger('window_start').notNullable(); // unix minute
    t.integer('hits').notNullable();
    t.primary(['token_id', 'window_start']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('rate_limit_windows');
  await db.schema.dropTable('api_tokens');
  await db.schema.dropTable('accounts');
}
