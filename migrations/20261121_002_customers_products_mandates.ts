import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('customers', (t) => {
    t.bigIncrements('seq').primary(); // creation order, for stable paging
    t.string('id', 40).notNullable().unique();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('number', 191).nullable();
    t.string('first_name', 191).notNullable();
    t.string('last_name', 191).notNullable();
    t.string('email', 191).notNullable();
    t.string('phone', 191).nullable();
    t.string('organization_name', 191).nullable();
    t.string('address', 191).nullable();
    t.string('postal_code', 191).nullable();
    t.string('city', 191).nullable();
    t.string('country', 2).nullable();
    t.string('vat_number', 191).nullable();
    t.string('locale', 2).nullable();
    t.string('provider_customer_id', 64).nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.index(['account_id', 'seq']);
    t.unique(['account_id', 'provider_customer_id']);
  });
  await db.schema.createTable('mandates', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 64).notNullable().unique(); // the provider's mandate id (mdt_…)
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('customer_id', 40).notNullable().references('customers.id');
    t.string('method', 32).notNullable();
    t.string('status', 16).notNullable();
    t.string('consumer_name', 191).nullable();
    t.string('consumer_account', 64).nullable();
    t.string('consumer_bic', 16).nullable();
    t.string('card_holder', 191).nullable();
    t.string('card_number', 8).nullable();
    t.date('card_expiry_date').nullable();
    t.string('card_label', 64).nullable();
    t.string('card_fingerprint', 191).nullable();
    t.string('mandate_reference', 191).notNullable();
    t.boolean('custom_reference').notNullable();
    t.date('signature_date').nullable();
    t.dateTime('revoked_at').nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.index(['account_id', 'customer_id']);
    t.unique(['account_id', 'mandate_reference']);
  });
  await db.schema.createTable('products', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 40).notNullable().unique();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('type', 16).notNullable();
    t.string('name', 191).notNullable();
    t.bigInteger('amount').notNullable(); // cents
    t.string('currency', 3).notNullable();
    t.integer('vat_basis_points').notNullable(); // 21% = 2100
    t.string('interval', 8).nullable();
    t.integer('interval_value').nullable();
    t.integer('times').nullable();
    t.bigInteger('shop_product_id').nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.index(['account_id', 'seq']);
    t.index(['account_id', 'shop_product_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('products');
  await db.schema.dropTable('mandates');
  await db.schema.dropTable('customers');
}
