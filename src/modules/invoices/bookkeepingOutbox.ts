import type { Knex } from 'knex';
import { bookkeepingAdapterNamed } from '../../bookkeeping';
import {
  BookkeepingCallError,
  BookkeepingRefusal,
  type BookkeepingBillTo,
  type BookkeepingInvoice,
  type BookkeepingSystem,
} from '../../bookkeeping/types';
import type { AppContext } from '../../context';
import { newId } from '../../ids';
import { doublingDelay } from '../../time/backoff';
import { msAfter, toDbDateTime, type Clock } from '../../time';
import { accountsRepository } from '../accounts/repository';
import { customersRepository } from '../customers/repository';
import { subscriptionsRepository } from '../subscriptions/repository';
import { bookkeepingOutboxRepository, type BookkeepingOutboxRow } from './bookkeepingOutboxRepository';
import type { InvoiceLine } from './document';
import { invoicesRepository, type InvoiceRow } from './repository';
import { errorMessage } from '../../errors';

/**
 * The bookkeeping outbox: every document for a bookkeeping system is a row first, written in the transaction that
 * makes the document (unique by our reference: the invoice id, or the credit's own id); then the
 * `send-to-bookkeeping` job calls the account's system through its adapter (src/bookkeeping/), retrying with
 * backoff. A row that was ever attempted may have reached the system (a lost answer, a killed process), so its
 * next attempt looks the document up by our reference first: never two invoices for one charge. The state shows
 * on the invoice (`pending`, `sent`, `failed` with the reason) and, for credit invoices, on the row.
 */
export type { BookkeepingOutboxRow } from './bookkeepingOutboxRepository';

/** After this many attempts a retryable error counts as failed (about two days of backoff). */
export const MAX_ATTEMPTS = 12;
/** Doubling from a minute, at most six hours. */
const SCHEDULE = { firstMs: 60_000, longestMs: 6 * 3600_000 };
const BATCH = 50;

/** Seconds before attempt `attempts + 1`: doubling from a minute, at most six hours; Retry-After when longer. */
export function backoffSeconds(attempts: number, retryAfterSeconds: number | null): number {
  return Math.max(doublingDelay(attempts, SCHEDULE) / 1000, retryAfterSeconds ?? 0);
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

/** The system the account names, when this service has an adapter for it; null when it has none. */
async function systemOfAccount(db: Knex, accountId: string): Promise<string | null> {
  const name = (await accountsRepository.bookkeepingSystemOf(db, accountId))?.bookkeeping_system ?? null;
  return bookkeepingAdapterNamed(name) ? name : null;
}

/**
 * Queues an issued invoice for the account's bookkeeping system, in the transaction that issues it (once: the
 * reference is the invoice id). Nothing when the account names no system this service has an adapter for: the
 * invoice then stays `pending` until one is added.
 */
export async function queueInvoice(db: Knex, clock: Clock, invoice: Pick<InvoiceRow, 'id' | 'account_id'>): Promise<void> {
  const system = await systemOfAccount(db, invoice.account_id);
  if (!system) return;
  await bookkeepingOutboxRepository.insertOnce(
    db,
    rowFor(clock, {
      account_id: invoice.account_id,
      system,
      kind: 'invoice',
      invoice_id: invoice.id,
      reference: invoice.id,
      credit_lines: null,
      credit_reason: null,
    }),
  );
}

/**
 * Queues the account's invoices that wait for a bookkeeping system (issued `pending` while it named one this service
 * has no adapter for), once it names one that has: the job then sends them, as it sends an invoice queued when issued.
 * Answers how many were queued; none when the account's system still has no adapter.
 */
export async function queueWaitingInvoices(db: Knex, clock: Clock, accountId: string): Promise<number> {
  if (!(await systemOfAccount(db, accountId))) return 0;
  const waiting = await bookkeepingOutboxRepository.waitingInvoicesOf(db, accountId);
  for (const invoice of waiting) await queueInvoice(db, clock, invoice);
  return waiting.length;
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
  const system = await systemOfAccount(db, input.accountId);
  if (!system) return null;
  const invoice = await invoicesRepository.find(db, input.accountId, input.invoiceId);
  if (!invoice) throw new Error(`No invoice ${input.invoiceId} in account ${input.accountId}`);
  const row = rowFor(clock, {
    account_id: input.accountId,
    system,
    kind: 'credit',
    invoice_id: invoice.id,
    reference: input.reference,
    credit_lines: JSON.stringify(input.lines ?? (JSON.parse(invoice.lines) as InvoiceLine[])),
    credit_reason: input.reason,
    credit_prices_incl_tax: input.pricesInclTax === true && input.lines !== undefined,
  });
  await bookkeepingOutboxRepository.insertOnce(db, row);
  return bookkeepingOutboxRepository.idOfReference(db, input.reference);
}

const shortError = (message: string) => message.slice(0, 480);

/** The systems opened during one run of the job, per account and system (or why one could not be opened). */
type OpenedSystems = Map<string, BookkeepingSystem | Error>;

async function systemFor(ctx: AppContext, row: BookkeepingOutboxRow, systems: OpenedSystems): Promise<BookkeepingSystem> {
  const key = `${row.account_id} ${row.system}`;
  let system = systems.get(key);
  if (!system) {
    const adapter = bookkeepingAdapterNamed(row.system);
    try {
      system = adapter
        ? await adapter.open(ctx, row.account_id)
        : new BookkeepingRefusal(`This service has no bookkeeping system "${row.system}"`);
    } catch (error) {
      system = error instanceof Error ? error : new Error(String(error));
    }
    systems.set(key, system);
  }
  if (system instanceof Error) throw system;
  return system;
}

/**
 * Whom an invoice bills, handed to the system (an adapter, which reads no module): the customer of the invoice's
 * subscription, as systems have been given from the start, so the contacts they made stay the same people's. What
 * is gone is said, not thrown: a system refuses only where it needs the customer (one it already knows serves).
 */
async function billToOf(db: Knex, invoice: InvoiceRow): Promise<BookkeepingBillTo> {
  const { account_id: accountId, subscription_id: subscriptionId } = invoice;
  const subscription = subscriptionId ? await subscriptionsRepository.find(db, accountId, subscriptionId) : undefined;
  if (!subscription) {
    const gone = new BookkeepingRefusal(`Subscription ${subscriptionId} of the invoice is gone`);
    return { customerId: null, customer: null, gone };
  }
  const customer = await customersRepository.find(db, accountId, subscription.customer_id);
  if (!customer) {
    const gone = new BookkeepingRefusal(`Customer ${subscription.customer_id} of the invoice is gone`);
    return { customerId: subscription.customer_id, customer: null, gone };
  }
  const { id, organization_name, first_name, last_name, email, address, postal_code, city, country } = customer;
  return {
    customerId: id,
    customer: { id, organization_name, first_name, last_name, email, address, postal_code, city, country },
  };
}

/** One attempt at one row: its outcome written back to the row and, for an invoice, to the invoice. */
async function attempt(ctx: AppContext, row: BookkeepingOutboxRow, systems: OpenedSystems): Promise<boolean> {
  const now = ctx.clock.now();
  // The attempt is counted before the call: if this process dies during it, the next one looks first.
  if (!(await bookkeepingOutboxRepository.claim(ctx.db, row, toDbDateTime(now)))) return true;
  const attempts = row.attempts + 1;
  const invoice = await invoicesRepository.find(ctx.db, row.account_id, row.invoice_id);
  const finish = async (changes: Partial<BookkeepingOutboxRow>, invoiceChanges?: Partial<InvoiceRow>) => {
    await ctx.db.transaction(async (trx) => {
      await bookkeepingOutboxRepository.update(trx, row.id, { ...changes, updated_at: toDbDateTime(ctx.clock.now()) });
      if (row.kind === 'invoice' && invoiceChanges) await invoicesRepository.updateBookkeeping(trx, row.invoice_id, invoiceChanges);
    });
  };
  try {
    if (!invoice) throw new BookkeepingRefusal(`Invoice ${row.invoice_id} is gone`);
    const system = await systemFor(ctx, row, systems);
    const document: BookkeepingInvoice = { ...invoice, billTo: await billToOf(ctx.db, invoice) };
    const mayExist = row.attempts > 0;
    const { reference } =
      row.kind === 'invoice'
        ? await system.sendInvoice(document, { mayExist })
        : await system.sendCreditInvoice(
            {
              reference: row.reference,
              invoice: document,
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
    const message = shortError(errorMessage(error));
    // A call that failed says whether to try again; a refusal never; anything else (our database) does.
    const retryable = error instanceof BookkeepingCallError ? error.retryable : !(error instanceof BookkeepingRefusal);
    if (retryable && attempts < MAX_ATTEMPTS) {
      const delay = backoffSeconds(attempts, error instanceof BookkeepingCallError ? error.retryAfterSeconds : null);
      await finish(
        { last_error: message, next_attempt_at: toDbDateTime(msAfter(now, delay * 1000)) },
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

/** The job: attempt every due row. */
export async function runDueBookkeeping(ctx: AppContext, signal: AbortSignal): Promise<{ processed: number; failed: number }> {
  const systems: OpenedSystems = new Map();
  let processed = 0;
  let failed = 0;
  const due = await bookkeepingOutboxRepository.due(ctx.db, toDbDateTime(ctx.clock.now()), BATCH);
  for (const row of due) {
    if (signal.aborted) break;
    if (await attempt(ctx, row, systems)) processed += 1;
    else failed += 1;
  }
  return { processed, failed };
}

/** Retries a failed row now (after the merchant fixed the ledger account or tax rate in the system). */
export async function retryFailed(db: Knex, clock: Clock, accountId: string, reference: string): Promise<boolean> {
  const now = toDbDateTime(clock.now());
  return db.transaction(async (trx) => {
    const row = await bookkeepingOutboxRepository.failedOfReference(trx, accountId, reference);
    if (!row) return false;
    // attempts stays: the document may exist at the system, so the retry looks it up first.
    await bookkeepingOutboxRepository.update(trx, row.id, { status: 'pending', next_attempt_at: now, updated_at: now });
    if (row.kind === 'invoice')
      await invoicesRepository.updateBookkeeping(trx, row.invoice_id, { bookkeeping_status: 'pending', bookkeeping_error: null });
    return true;
  });
}
