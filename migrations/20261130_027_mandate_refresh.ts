import type { Knex } from 'knex';

/**
 * The `refresh-mandates` job asks the provider about pending mandates and valid ones in use, oldest
 * checked first: `mandates.checked_at` is when it last did (null: never). Subscriptions are looked up
 * by their mandate to find the drafts to activate and whether a mandate is in use.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('mandates', (t) => {
    t.dateTime('checked_at').nullable();
    t.index(['status', 'checked_at']);
  });
  await db.schema.alterTable('subscriptions', (t) => {
    t.index(['provider_mandate_id', 'status']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('subscriptions', (t) => {
    t.dropIndex(['provider_mandate_id', 'status']);
  });
  await db.schema.alterTable('mandates', (t) => {
    t.dropIndex(['status', 'checked_at']);
    t.dropColumn('checked_at');
  });
}
