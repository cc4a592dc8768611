import type { Knex } from 'knex';

/**
 * The mail outbox: a mail is written here in the transaction of whatever caused it and sent after
 * the commit (SMTP_URL), or only kept here when no server is configured. `dedupe_key` makes "the
 * reminder of link X" one mail however often it is queued.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('outgoing_mails', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 40).notNullable().unique();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('template', 64).notNullable();
    t.string('locale', 5).notNullable();
    t.string('recipient', 191).notNullable();
    t.string('subject', 191).notNullable();
    t.text('text_body', 'mediumtext').notNullable();
    t.text('html_body', 'mediumtext').notNullable();
    t.string('status', 16).notNullable(); // queued, sent, stored, failed
    t.integer('attempts').notNullable().defaultTo(0);
    t.dateTime('next_attempt_at').nullable();
    t.string('last_error', 191).nullable();
    t.dateTime('sent_at').nullable();
    t.string('dedupe_key', 191).nullable().unique();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.index(['status', 'next_attempt_at']);
    t.index(['account_id', 'seq']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('outgoing_mails');
}
