import type { Knex } from 'knex';

/**
 * Whether a store's product is shipped (WooCommerce's `virtual` is false): an order's shipping recurs
 * on renewals only with a subscription that ships something. Null when not known (a product made
 * here, or synced before): it is taken as shipped, as renewals were before, until the next sync says.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('products', (t) => {
    t.boolean('shipped').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  // Natively, not by knex's table copy on SQLite: the copy would lose the tables' numbering triggers (migration 022).
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['products', 'shipped']);
}
