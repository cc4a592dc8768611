import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Issue 37: an invoice for the account's bookkeeping system gets its outbox row in the transaction that issues
 * it, where the `send-to-bookkeeping` job used to add the rows of pending invoices by a join each time it ran.
 * Invoices issued before this that the job had not reached yet get their row here, once (the reference is the
 * invoice id, unique), as the join would have made it: for issued, pending invoices of accounts connected to
 * Moneybird, then the one system with a connection table.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const newOutboxId = () => `bko_${[...randomBytes(16)].map((byte) => BASE62[byte % 62]).join('')}`;

export async function up(db: Knex): Promise<void> {
  const invoices: Array<{ id: string; account_id: string }> = await db('invoices')
    .join('moneybird_connections', 'moneybird_connections.account_id', 'invoices.account_id')
    .leftJoin('bookkeeping_outbox', 'bookkeeping_outbox.reference', 'invoices.id')
    .where('invoices.bookkeeping_status', 'pending')
    .where('invoices.status', 'issued')
    .whereNull('bookkeeping_outbox.id')
    .orderBy('invoices.created_at')
    .select('invoices.id', 'invoices.account_id');
  const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
  for (const invoice of invoices) {
    await db('bookkeeping_outbox')
      .insert({
        id: newOutboxId(),
        account_id: invoice.account_id,
        system: 'moneybird',
        kind: 'invoice',
        invoice_id: invoice.id,
        reference: invoice.id,
        credit_lines: null,
        credit_reason: null,
        credit_prices_incl_tax: false,
        status: 'pending',
        step: 'create',
        external_id: null,
        attempts: 0,
        next_attempt_at: now,
        last_error: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict('reference')
      .ignore();
  }
}

/** The rows stay: the job sends them as it would have. */
export async function down(): Promise<void> {}
