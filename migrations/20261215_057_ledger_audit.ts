import type { Knex } from 'knex';

/**
 * The ledger audit (issue 36). `invoice_number_moves`: each time the merchant moved an invoice series' next
 * number up (`set-invoicing --next`), so that the audit tells those gaps from lost numbers. `audit_reports`: each
 * run of the audit per account (the daily job, `POST /api/v2/audit`), its report kept as JSON.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('invoice_number_moves', (t) => {
    t.increments('seq').primary();
    t.string('account_id', 40).notNullable().references('id').inTable('accounts');
    t.string('prefix', 32).notNullable();
    t.bigInteger('from_number').notNullable(); // the next number before the move
    t.bigInteger('to_number').notNullable(); // the next number after it
    t.dateTime('moved_at').notNullable();
    t.index(['account_id', 'prefix']);
  });
  await db.schema.createTable('audit_reports', (t) => {
    t.string('id', 40).primary();
    t.string('account_id', 40).notNullable().references('id').inTable('accounts');
    t.string('status', 16).notNullable(); // running, done, failed
    t.string('requested_via', 16).notNullable(); // job, api, cli
    t.date('since').nullable();
    t.integer('violations').nullable();
    t.integer('todos').nullable();
    t.text('report', 'mediumtext').nullable();
    t.string('error', 500).nullable();
    t.dateTime('started_at').notNullable();
    t.dateTime('finished_at').nullable();
    t.index(['account_id', 'started_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('audit_reports');
  await db.schema.dropTable('invoice_number_moves');
}
