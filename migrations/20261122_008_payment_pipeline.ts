import type { Knex } from 'knex';

/**
 * The payment pipeline: our row is written before the provider is called, and resumed (never
 * recreated) when the provider's answer is lost.
 * - payments: what each payment is for (`purpose`, `purpose_id`); status `creating` until the
 *   provider's answer is recorded, `rejected` when the provider refused it. An index finds rows
 *   left `creating` across accounts for the job that finishes them.
 * - customers: `provider_customer_id` null means "not confirmed at the provider yet"; an index
 *   finds those for the same job.
 * - idempotency_keys: a request that died holds its key only until `locked_until`; `resource_id`
 *   is what it created, so a retry resumes that instead of creating another.
 * - mandates: a card mandate made by a paid first payment has no reference.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('payments', (t) => {
    t.string('purpose', 16).notNullable().defaultTo('api'); // api | link | charge | follow-up | order
    t.string('purpose_id', 40).nullable(); // the link, charge, follow-up or order it is for
    t.index(['account_id', 'purpose', 'purpose_id']);
    t.index(['status', 'updated_at']);
  });
  await db.schema.alterTable('customers', (t) => {
    t.index(['provider_customer_id', 'updated_at']);
  });
  await db.schema.alterTable('idempotency_keys', (t) => {
    t.dateTime('locked_until').nullable();
    t.string('resource_id', 40).nullable();
  });
  // Keys of requests that were running when this version was installed free up after a minute.
  await db('idempotency_keys')
    .where({ state: 'running' })
    .update({ locked_until: db.raw('created_at') });
  await db.schema.alterTable('mandates', (t) => {
    t.string('mandate_reference', 191).nullable().alter();
  });
}

export async function down(db: Knex): Promise<void> {
  // The old schema needs a reference on every mandate: the provider's id is unique, so it serves.
  await db('mandates')
    .whereNull('mandate_reference')
    .update({ mandate_reference: db.ref('id') });
  await db.schema.alterTable('mandates', (t) => {
    t.string('mandate_reference', 191).notNullable().alter();
  });
  await db.schema.alterTable('idempotency_keys', (t) => {
    t.dropColumns('locked_until', 'resource_id');
  });
  await db.schema.alterTable('customers', (t) => {
    t.dropIndex(['provider_customer_id', 'updated_at']);
  });
  await db.schema.alterTable('payments', (t) => {
    t.dropIndex(['status', 'updated_at']);
    t.dropIndex(['account_id', 'purpose', 'purpose_id']);
    t.dropColumns('purpose', 'purpose_id');
  });
}
