import type { Knex } from 'knex';

/**
 * The billing engine. A charge row per (subscription, charge number) is written before anything is
 * asked of the provider: its unique key, not a lock, is what makes each period charged once.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('subscription_charges', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 40).notNullable().unique(); // chg_…
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('subscription_id', 40).notNullable().references('subscriptions.id');
    t.integer('charge_number').notNullable(); // 1-based, per the subscription's schedule
    t.string('rule_id', 40).notNullable();
    t.date('due_date').notNullable();
    t.bigInteger('amount').notNullable(); // cents
    t.string('currency', 3).notNullable();
    // due | charged | paid | failed | skipped | not_charged | cancelled
    t.string('status', 16).notNullable();
    t.string('payment_id', 40).nullable();
    // A billing instance works on a charge only while it holds its claim; an expired claim is taken over.
    t.string('claim_token', 40).nullable();
    t.dateTime('claimed_until').nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('last_error', 191).nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.unique(['subscription_id', 'charge_number']);
    t.index(['status', 'due_date']);
    t.index(['account_id', 'subscription_id']);
    t.index(['claim_token']);
  });

  // One invoice record per paid charge whose rule has invoice lines (the bookkeeping hook).
  await db.schema.createTable('invoices', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 40).notNullable().unique(); // ivc_…
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('subscription_id', 40).notNullable().references('subscriptions.id');
    t.string('charge_id', 40).notNullable().unique();
    t.string('payment_id', 40).notNullable();
    t.string('currency', 3).notNullable();
    t.text('lines').notNullable(); // JSON: quantity, description, amount, vat, ledger_account_id, totals per line
    t.bigInteger('total_excluding_vat').notNullable(); // cents
    t.bigInteger('total_vat').notNullable();
    t.bigInteger('total_including_vat').notNullable();
    t.string('workflow_id', 191).nullable();
    t.string('docstyle_id', 191).nullable();
    // none: the account has no bookkeeping system; pending: waiting to be sent to it.
    t.string('bookkeeping_status', 16).notNullable();
    t.string('bookkeeping_reference', 191).nullable();
    t.dateTime('created_at').notNullable();
    t.index(['account_id', 'subscription_id', 'seq']);
  });

  // Periods in which a subscription was paused: charges dated inside one are skipped, not made up.
  await db.schema.createTable('subscription_pauses', (t) => {
    t.string('id', 40).primary();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('subscription_id', 40).notNullable().references('subscriptions.id');
    t.date('from_date').notNullable();
    t.date('until_date').nullable(); // exclusive; null: until resumed
    t.dateTime('created_at').notNullable();
    t.index(['account_id', 'subscription_id']);
  });

  await db.schema.alterTable('subscriptions', (t) => {
    // The next charge the planner writes, and its date whatever pauses say (next_payment_at skips them).
    t.integer('next_charge_number').notNullable().defaultTo(1);
    t.date('next_charge_date').nullable();
    t.index(['status', 'next_charge_date']);
  });
  await db('subscriptions').update({ next_charge_date: db.ref('next_payment_at') });

  await db.schema.alterTable('payments', (t) => {
    // What the payment was made for, once: `charge-<id>`, `follow-up-<id>-retry-<n>`. Unique per account,
    // so a second attempt to make the same payment finds the first instead of creating another.
    t.string('origin_key', 80).nullable();
    t.unique(['account_id', 'origin_key']);
  });

  await db.schema.alterTable('accounts', (t) => {
    t.string('follow_up_type', 8).notNullable().defaultTo('both');
    t.integer('follow_up_max_retries').notNullable().defaultTo(3);
    t.integer('follow_up_retry_days').notNullable().defaultTo(3);
    t.string('follow_up_on_failure', 8).notNullable().defaultTo('pause');
    t.integer('pre_notification_days').nullable();
    // The merchant's own endpoint for account events (every payment, subscriptions, follow-ups).
    t.string('events_url', 2048).nullable();
  });

  // Events about subscriptions and follow-ups go through the same outbox as payment events.
  await db.schema.alterTable('outbound_events', (t) => {
    t.string('payment_id', 40).nullable().alter();
    t.string('resource_id', 40).nullable();
  });

  await db.schema.alterTable('follow_ups', (t) => {
    // failure | chargeback | mandate: with the payment it is about, what makes a follow-up unique.
    t.string('kind', 16).notNullable().defaultTo('failure');
    t.string('origin_key', 80).nullable();
    // retry | link | waiting (for the retry's or the link's outcome) | done
    t.string('stage', 8).notNullable().defaultTo('done');
    t.string('link_id', 40).nullable();
    t.dateTime('resolved_at').nullable();
    t.unique(['account_id', 'origin_key']);
    t.index(['status', 'next_retry_at']);
    t.index(['account_id', 'link_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('follow_ups', (t) => {
    t.dropUnique(['account_id', 'origin_key']);
    t.dropIndex(['status', 'next_retry_at']);
    t.dropIndex(['account_id', 'link_id']);
  });
  await db.schema.alterTable('follow_ups', (t) => {
    t.dropColumns('kind', 'origin_key', 'stage', 'link_id', 'resolved_at');
  });
  await db.schema.alterTable('outbound_events', (t) => {
    t.dropColumn('resource_id');
  });
  await db.schema.alterTable('accounts', (t) => {
    t.dropColumn('events_url');
  });
  await db.schema.alterTable('accounts', (t) => {
    t.dropColumns('follow_up_type', 'follow_up_max_retries', 'follow_up_retry_days', 'follow_up_on_failure', 'pre_notification_days');
  });
  await db.schema.alterTable('payments', (t) => {
    t.dropUnique(['account_id', 'origin_key']);
  });
  await db.schema.alterTable('payments', (t) => {
    t.dropColumn('origin_key');
  });
  await db.schema.alterTable('subscriptions', (t) => {
    t.dropIndex(['status', 'next_charge_date']);
  });
  await db.schema.alterTable('subscriptions', (t) => {
    t.dropColumns('next_charge_number', 'next_charge_date');
  });
  await db.schema.dropTable('subscription_pauses');
  await db.schema.dropTable('invoices');
  await db.schema.dropTable('subscription_charges');
}
