import type { Knex } from 'knex';

/**
 * A store's variable product is sold as its variations, each a product of its own here (its
 * `shop_product_id` is the variation's store id). `shop_parent_product_id` is the store id of the
 * product it is a variation of (null for any other product): a parent deleted in the store marks its
 * variations deleted, a variation gone from its parent's list is marked deleted, and a renewal order
 * names the parent and the variation as the store wants them.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('products', (t) => {
    t.bigInteger('shop_parent_product_id').nullable();
    t.index(['account_id', 'shop_parent_product_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('products', (t) => {
    t.dropIndex(['account_id', 'shop_parent_product_id']);
  });
  // Natively, not by knex's table copy on SQLite: the copy would lose the tables' numbering triggers (migration 022).
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['products', 'shop_parent_product_id']);
}
