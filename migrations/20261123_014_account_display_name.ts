import type { Knex } from 'knex';

/** The name buyers see on the hosted pages and in e-mails; the account's own name when not set. */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => {
    t.string('display_name', 191).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => {
    t.dropColumn('display_name');
  });
}
