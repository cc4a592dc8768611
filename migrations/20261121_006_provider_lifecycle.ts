import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/** An opaque, unguessable reference for an account in public URLs (webhooks), never its id. */
const newPublicRef = () => randomBytes(18).toString('base64url');

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => {
    t.string('public_ref', 32).nullable().unique();
    // Secrets are AES-256-GCM ciphertexts (src/crypto/secrets.ts), never plain text.
    t.text('webhook_secret_encrypted').nullable();
    t.text('mollie_api_key_encrypted').nullable();
    t.string('mollie_profile_id', 64).nullable();
    t.string('mollie_api_url', 255).nullable();
  });
  for (const { id } of await db('accounts').select<{ id: string }[]>('id')) {
    await db('accounts').where({ id }).update({ public_ref: newPublicRef() });
  }

  // Every inbound provider webhook call, kept before it is processed, so none is lost.
  await db.schema.createTable('provider_webhook_calls', (t) => {
    t.bigIncrements('seq').primary();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('provider', 16).notNullable();
    t.string('resource_id', 64).notNullable(); // tr_…
    t.dateTime('received_at').notNullable();
    t.dateTime('processed_at').nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('last_error', 500).nullable();
    t.index(['account_id', 'resource_id']);
    t.index(['processed_at', 'received_at']);
  });

  // The outbox: events to a client's webhook_url, written in the same transaction as the change.
  await db.schema.createTable('outbound_events', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 40).notNullable().unique(); // evt_…
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('payment_id', 40).notNullable().references('payments.id');
    t.string('event', 40).notNullable(); // payment.paid
    t.text('payload').notNullable(); // the exact JSON body that is signed and sent
    t.string('url', 2048).notNullable();
    t.string('status', 16).notNullable(); // pending | delivered | dead
    t.integer('attempts').notNullable().defaultTo(0);
    t.dateTime('next_attempt_at').nullable();
    t.dateTime('last_attempt_at').nullable();
    t.integer('last_status_code').nullable();
    t.string('last_error', 500).nullable();
    t.dateTime('delivered_at').nullable();
    t.dateTime('created_at').notNullable();
    t.index(['status', 'next_attempt_at']);
    t.index(['account_id', 'payment_id']);
  });

  // One row per job name: whoever holds an unexpired lease runs the job.
  await db.schema.createTable('job_leases', (t) => {
    t.string('name', 64).primary();
    t.string('owner', 128).nullable();
    t.dateTime('expires_at').nullable();
    t.dateTime('acquired_at').nullable();
  });

  // Idempotency-Key of our own API: the first response is replayed for 24 hours.
  await db.schema.createTable('idempotency_keys', (t) => {
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('idempotency_key', 255).notNullable();
    t.string('request_hash', 64).notNullable(); // SHA-256 of method, path and body
    t.string('state', 16).notNullable(); // running | done
    t.integer('response_status').nullable();
    t.text('response_body', 'mediumtext').nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('expires_at').notNullable();
    t.primary(['account_id', 'idempotency_key']);
    t.index(['expires_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('idempotency_keys');
  await db.schema.dropTable('job_leases');
  await db.schema.dropTable('outbound_events');
  await db.schema.dropTable('provider_webhook_calls');
  await db.schema.alterTable('accounts', (t) => {
    t.dropUnique(['public_ref']);
    t.dropColumns('public_ref', 'webhook_secret_encrypted', 'mollie_api_key_encrypted', 'mollie_profile_id', 'mollie_api_url');
  });
}
