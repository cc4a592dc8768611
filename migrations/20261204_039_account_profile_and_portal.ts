import type { Knex } from 'knex';

/**
 * What the customer is told about the merchant (a contact e-mail, the SEPA creditor identifier the
 * pre-notification names) and what the self-service portal lets a customer do. Null means the
 * default: no contact e-mail or creditor id; every portal action allowed (an empty list: none);
 * pauses of at most 92 days.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => {
    t.string('contact_email', 191).nullable();
    t.string('creditor_id', 35).nullable();
    t.string('portal_allowed_actions', 191).nullable();
    t.integer('portal_max_pause_days').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  // Natively (SQLite 3.35+ and MySQL): knex's table copy on SQLite would rebuild the table every other one refers to.
  for (const column of ['contact_email', 'creditor_id', 'portal_allowed_actions', 'portal_max_pause_days']) {
    await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['accounts', column]);
  }
}
