import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { newId } from '../../ids';
import { BookkeepingRefusal, type BookkeepingSystem } from '../../bookkeeping/types';
import type { InvoiceLine } from './issuing';
import type { InvoiceRow } from './repository';
import { toDbDateTime, type Clock } from '../../time';
import { MoneybirdBookkeeping } from '../../bookkeeping/moneybird/adapter';
import { MoneybirdError } from '../../bookkeeping/moneybird/client';
import { MoneybirdConnectionError, moneybirdConnectionOf } from '../../bookkeeping/moneybird/connection';

/**
 * The bookkeeping outbox: every document for a bookkeeping system is a row first (unique by our
 * reference: the invoice id, or the credit's own id), then the `send-to-bookkeeping` job calls the
 * system, retrying with backoff. A row that was ever attempted may have reached the system (a lost
 * answer, a killed process), so its next attempt looks the document up by our reference first: never
 * two invoices for one charge. The state shows on the invoice (`pending`, `sent`, `failed` with the
 * reason) and, for credit invoices, on the row (`cli bookkeeping list`).
 */
export interface BookkeepingOutboxRow {
  id: string;
  account_id: string;
  system: string;
  kind: 'invoice' | 'credit';
  invoice_id: string;
  reference: string;
  credit_lines: string | null;
  credit_reason: 'refund' | 'chargeback' | null;
  /** The credit's lines are VAT-inclusive amounts (a partial refund): sent with inclusive prices. */
  credit_prices_incl_tax: boolean;
  status: 'pending' | 'sent' | 'failed';
  step: string;
  external_id: string | null;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** After this many attempts a retryable error counts as failed (about two days of backoff). */
export const MAX_ATTEMPTS = 12;
const FIRST_DELAY_SECONDS = 60;
const MAX_DELAY_SECONDS = 6 * 3600;
const BATCH = 50;

const outbox = (db: Knex) => db<BookkeepingOutboxRow>('bookkeeping_outbox');

/** Seconds before attempt `attempts + 1`: doubling from a minute, at most six hours; Retry-After when longer. */
export function backoffSeconds(attempts: number, retryAfterSeconds: number | null): number {
  const doubling = Math.min(FIRST_DELAY_SECONDS * 2 ** Math.max(0, attempts - 1), MAX_DELAY_SECONDS);
  return Math.max(doubling, retryAfterSeconds ?? 0);
}

function rowFor(
  clock: Clock,
  fields: Pick<BookkeepingOutboxRow, 'account_id' | 'system' | 'kind' | 'invoice_id' | 'reference' | 'credit_lines' | 'credit_reason'> &
    Partial<Pick<BookkeepingOutboxRow, 'credit_prices_incl_tax'>>,
): BookkeepingOutboxRow {
  const now = toDbDateTime(clock.now());
  return {
    id: newId('bko'),
    credit_prices_incl_tax: false,
    ...fields,
    status: 'pending',
    step: 'create',
    external_id: null,
    attempts: 0,
    next_attempt_at: now,
    last_error: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Queues a credit invoice of `invoiceId` at the account's bookkeeping system, for a refund or a
 * chargeback: the credit-note path calls this (in its own transaction, if it likes). `reference` is
 * unique (the refund's or credit note's id): calling again with it queues nothing. `lines` are the
 * credited lines as on the invoice (positive amounts); all of the invoice's lines when absent.
 * `pricesInclTax`: the lines are VAT-inclusive amounts (part of the invoice given back), sent so.
 * Answers the outbox row's id, or null when the account has no system that takes documents.
 */
export async function queueCreditInvoice(
  db: Knex,
  clock: Clock,
  input: {
    accountId: string;
    invoiceId: string;
    reference: string;
    reason: 'refund' | 'chargeback';
    lines?: InvoiceLine[];
    pricesInclTax?: boolean;
  },
): Promise<string | null> {
  const account = await db('accounts')
    .where({ id: input.accountId })
    .first<{ bookkeeping_system: string | null } | undefined>('bookkeeping_system');
  if (account?.bookkeeping_system !== 'moneybird') return null;
  const invoice = await db<InvoiceRow>('invoices').where({ account_id: input.accountId, id: input.invoiceId }).first();
  if (!invoice) throw new Error(`No invoice ${input.invoiceId} in account ${input.accountId}`);
  const row = rowFor(clock, {
    account_id: input.accountId,
    system: 'moneybird',
    kind: 'credit',
    invoice_id: invoice.id,
    reference: input.reference,
    credit_lines: JSON.stringify(input.lines ?? (JSON.parse(invoice.lines) as InvoiceLine[])),
    credit_reason: input.reason,
    credit_prices_incl_tax: input.pricesInclTax === true && input.lines !== undefined,
  });
  await outbox(db).insert(row).onConflict('reference').ignore();
  const stored = await outbox(db).where({ reference: input.reference }).first('id');
  return stored?.id ?? null;
}

/** Pending invoices of Moneybird accounts get their outbox row (once: the reference is the invoice id). */
async function queuePendingInvoices(ctx: AppContext): Promise<void> {
  const invoices: Array<Pick<InvoiceRow, 'id' | 'account_id'>> = await ctx
    .db('invoices')
    .join('moneybird_connections', 'moneybird_connections.account_id', 'invoices.account_id')
    .leftJoin('bookkeeping_outbox', 'bookkeeping_outbox.reference', 'invoices.id')
    .where('invoices.bookkeeping_status', 'pending')
    .where('invoices.status', 'issued')
    .whereNull('bookkeeping_outbox.id')
    .limit(500)
    .select('invoices.id', 'invoices.account_id');
  for (const invoice of invoices) {
    const row = rowFor(ctx.clock, {
      account_id: invoice.account_id,
      system: 'moneybird',
      kind: 'invoice',
      invoice_id: invoice.id,
      reference: invoice.id,
      credit_lines: null,
      credit_reason: null,
    });
    await outbox(ctx.db).insert(row).onConflict('reference').ignore();
  }
}

const shortError = (message: string) => message.slice(0, 480);

/** One attempt at one row: its outcome written back to the row and, for an invoice, to the invoice. */
async function attempt(ctx: AppContext, row: BookkeepingOutboxRow, systems: Map<string, BookkeepingSystem | Error>): Promise<boolean> {
  const now = ctx.clock.now();
  // The attempt is counted before the call: if this process dies during it, the next one looks first.
  const claimed = await outbox(ctx.db)
    .where({ id: row.id, attempts: row.attempts, status: 'pending' })
    .update({ attempts: row.attempts + 1, updated_at: toDbDateTime(now) });
  if (!claimed) return true;
  const attempts = row.attempts + 1;
  const invoice = await ctx.db<InvoiceRow>('invoices').where({ account_id: row.account_id, id: row.invoice_id }).first();
  const finish = async (changes: Partial<BookkeepingOutboxRow>, invoiceChanges?: Partial<InvoiceRow>) => {
    await ctx.db.transaction(async (trx) => {
      await outbox(trx)
        .where({ id: row.id })
        .update({ ...changes, updated_at: toDbDateTime(ctx.clock.now()) });
      if (row.kind === 'invoice' && invoiceChanges) await trx('invoices').where({ id: row.invoice_id }).update(invoiceChanges);
    });
  };
  try {
    if (!invoice) throw new BookkeepingRefusal(`Invoice ${row.invoice_id} is gone`);
    let system = systems.get(row.account_id);
    if (!system) {
      try {
        const connection = await moneybirdConnectionOf(ctx, ctx.db, row.account_id);
        system = connection
          ? new MoneybirdBookkeeping(ctx.db, ctx.clock, connection)
          : new BookkeepingRefusal('The account is no longer connected to Moneybird');
      } catch (error) {
        system = error instanceof Error ? error : new Error(String(error));
      }
      systems.set(row.account_id, system);
    }
    if (system instanceof Error) throw system instanceof MoneybirdConnectionError ? new BookkeepingRefusal(system.message) : system;
    const mayExist = row.attempts > 0;
    const { reference } =
      row.kind === 'invoice'
        ? await system.sendInvoice(invoice, { mayExist })
        : await system.sendCreditInvoice(
            {
              reference: row.reference,
              invoice,
              lines: JSON.parse(row.credit_lines ?? '[]') as InvoiceLine[],
              reason: row.credit_reason ?? 'refund',
              date: row.created_at,
              // SQLite answers 0/1, MySQL a number too: a boolean either way.
              pricesInclTax: Boolean(Number(row.credit_prices_incl_tax)),
            },
            { mayExist },
          );
    await finish(
      { status: 'sent', step: 'done', external_id: reference, last_error: null },
      { bookkeeping_status: 'sent', bookkeeping_reference: reference, bookkeeping_error: null },
    );
    ctx.logger.info('bookkeeping document sent', { accountId: row.account_id, outboxId: row.id, kind: row.kind, attempts });
    return true;
  } catch (error) {
    const message = shortError(error instanceof Error ? error.message : String(error));
    const retryable = error instanceof MoneybirdError ? error.retryable : !(error instanceof BookkeepingRefusal);
    if (retryable && attempts < MAX_ATTEMPTS) {
      const delay = backoffSeconds(attempts, error instanceof MoneybirdError ? error.retryAfterSeconds : null);
      await finish(
        { last_error: message, next_attempt_at: toDbDateTime(new Date(now.getTime() + delay * 1000)) },
        { bookkeeping_error: `${message} (retrying)` },
      );
      ctx.logger.warn('bookkeeping document not sent, retrying', {
        accountId: row.account_id,
        outboxId: row.id,
        attempts,
        delay,
        error: message,
      });
    } else {
      const reason = retryable ? `Gave up after ${attempts} attempts: ${message}` : message;
      await finish(
        { status: 'failed', last_error: shortError(reason) },
        { bookkeeping_status: 'failed', bookkeeping_error: shortError(reason) },
      );
      ctx.logger.warn('bookkeeping document failed', { accountId: row.account_id, outboxId: row.id, attempts, error: reason });
    }
    return false;
  }
}

/** The job: queue pending invoices, then attempt every due row. */
export async function runDueBookkeeping(ctx: AppContext, signal: AbortSignal): Promise<{ processed: number; failed: number }> {
  await queuePendingInvoices(ctx);
  const systems = new Map<string, BookkeepingSystem | Error>();
  let processed = 0;
  let failed = 0;
  const due = await outbox(ctx.db)
    .where('status', 'pending')
    .andWhere('next_attempt_at', '<=', toDbDateTime(ctx.clock.now()))
    .orderBy('created_at')
    .orderBy('id')
    .limit(BATCH);
  for (const row of due) {
    if (signal.aborted) break;
    if (await attempt(ctx, row, systems)) processed += 1;
    else failed += 1;
  }
  return { processed, failed };
}

/** Retries a failed row now (after the merchant fixed the ledger account or tax rate in Moneybird). */
export async function retryFailed(db: Knex, clock: Clock, accountId: string, reference: string): Promise<boolean> {
  const now = toDbDateTime(clock.now());
  return db.transaction(async (trx) => {
    const row = await outbox(trx).where({ account_id: accountId, reference, status: 'failed' }).first();
    if (!row) return false;
    // attempts stays: the document may exist at the system, so the retry looks it up first.
    await outbox(trx).where({ id: row.id }).update({ status: 'pending', next_attempt_at: now, updated_at: now });
    if (row.kind === 'invoice')
      await trx('invoices').where({ id: row.invoice_id }).update({ bookkeeping_status: 'pending', bookkeeping_error: null });
    return true;
  });
}
