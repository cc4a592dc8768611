import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { NotFoundError, ValidationError, errorMessage } from '../../errors';
import { newId } from '../../ids';
import type { Page, PageRequest } from '../../paging';
import { pageRequestFrom } from '../../validation/pagination';
import { STORE_SUBSCRIPTIONS_IMPORT } from '../../integrations';
import { PROVIDER_SUBSCRIPTIONS_IMPORT } from '../../providers';
import { toDbDateTime } from '../../time';
import { bytesOf } from './csvFile';
import { checkCsvFile, csvSource } from './csvSource';
import { vatRateOf } from './importVat';
import { importsRepository, type ImportRow, type ImportRowOutcome, type RowOutcome } from './repository';
import { importCandidate } from './rowImport';
import type { ImportSource } from './sources';
import type { CreateImportInput } from './schemas';
import { providerSubscriptionsSource } from './providerSubscriptionsSource';
import { storeSubscriptionsSource } from './storeSubscriptionsSource';

/** The counts of a run so far, for a progress line. */
export interface ImportCounts {
  total: number;
  created: number;
  skipped: number;
  failed: number;
}

export interface RunImportOptions {
  dryRun: boolean;
  /** Called after each row, with the counts so far. */
  onProgress?: (counts: ImportCounts) => void;
}

/** Which count an outcome adds to: a dry run's plan counts as what it would do. */
const COUNTED_AS: Record<RowOutcome, keyof Omit<ImportCounts, 'total'>> = {
  created: 'created',
  would_create: 'created',
  skipped: 'skipped',
  would_skip: 'skipped',
  exists: 'skipped',
  failed: 'failed',
};

/**
 * Imports the source's subscriptions into the account, row by row. Each row's work is keyed by the
 * source's id (see rowImport.ts), so a second run creates nothing new and a run after a crash
 * finishes what the crashed one began. Each row's outcome and the counts are written as the run
 * goes: a run that stops half-way leaves an honest, `running` report behind.
 */
export async function runImport(ctx: AppContext, account: Account, source: ImportSource, options: RunImportOptions): Promise<ImportRow> {
  const startedAt = toDbDateTime(ctx.clock.now());
  const run: ImportRow = {
    id: newId('imp'),
    account_id: account.id,
    source: source.name,
    dry_run: options.dryRun,
    status: 'running',
    total: 0,
    created: 0,
    skipped: 0,
    failed: 0,
    error: null,
    started_at: startedAt,
    finished_at: null,
    created_at: startedAt,
    updated_at: startedAt,
  };
  await importsRepository.insert(ctx.db, run);
  // Chosen once: a dry run never calls it, but an account without a provider fails here, before any row.
  const provider = await ctx.providers.forAccount(account);
  const counts: ImportCounts = { total: 0, created: 0, skipped: 0, failed: 0 };
  try {
    const seen = new Set<string>();
    for await (const given of source.candidates(ctx, account)) {
      // Each source id once per run: a second candidate with it fails alone (under the id and its position).
      const repeated = seen.has(given.sourceId);
      seen.add(given.sourceId);
      const candidate = repeated
        ? {
            ...given,
            sourceId: `${given.sourceId} (#${counts.total + 1})`,
            invalid: { field: 'source_id', message: 'The source gave this id twice.' },
          }
        : given;
      const outcome = await importCandidate(ctx, account, provider, source, candidate, options.dryRun);
      counts.total += 1;
      counts[COUNTED_AS[outcome.outcome]] += 1;
      const now = toDbDateTime(ctx.clock.now());
      await ctx.db.transaction(async (trx) => {
        await importsRepository.insertOutcome(trx, {
          account_id: account.id,
          import_id: run.id,
          source_id: candidate.sourceId,
          line: candidate.line ?? null,
          outcome: outcome.outcome,
          field: outcome.field,
          reason: outcome.reason,
          customer_id: outcome.customerId,
          subscription_id: outcome.subscriptionId,
          created_at: now,
        });
        await importsRepository.update(trx, run, { ...counts, updated_at: now });
      });
      options.onProgress?.({ ...counts });
    }
  } catch (error) {
    const now = toDbDateTime(ctx.clock.now());
    const message = errorMessage(error);
    await importsRepository.update(ctx.db, run, { status: 'failed', error: message.slice(0, 500), finished_at: now, updated_at: now });
    throw error;
  }
  const finishedAt = toDbDateTime(ctx.clock.now());
  const finished = { ...run, ...counts, status: 'finished' as const, finished_at: finishedAt, updated_at: finishedAt };
  await importsRepository.update(ctx.db, run, { status: 'finished', finished_at: finishedAt, updated_at: finishedAt });
  return finished;
}

/** The source a request names; a CSV file is checked through first (its encoding and columns). */
async function sourceOf(input: CreateImportInput): Promise<ImportSource> {
  const vatRate = input.vat_rate ? vatRateOf(input.vat_rate) : null;
  switch (input.source) {
    case 'csv': {
      const invalid = (field: string, message: string) =>
        ValidationError.field('Could not start import. Some fields contain invalid data', field, message);
      const given = input.csv_base64 ? Buffer.from(input.csv_base64, 'base64') : input.csv ? Buffer.from(input.csv, 'utf8') : null;
      if (!given) throw invalid('csv', 'The csv or csv_base64 field is required for a CSV import.');
      // Text in JSON is Unicode already: only the file's own bytes have an encoding to convert from.
      if (input.encoding === 'windows-1252' && !input.csv_base64) throw invalid('encoding', 'An encoding applies to csv_base64 only.');
      const bytes = bytesOf(given);
      const encoding = input.encoding ?? 'utf-8';
      await checkCsvFile(bytes, encoding);
      return csvSource(bytes, { encoding, vatRate });
    }
    case PROVIDER_SUBSCRIPTIONS_IMPORT.sourceName:
      return providerSubscriptionsSource({ vatRate });
    case STORE_SUBSCRIPTIONS_IMPORT.sourceName:
      return storeSubscriptionsSource();
  }
}

/** A run with one page of its rows (in the order they were read). */
export interface ImportReport {
  run: ImportRow;
  rows: Page<ImportRowOutcome>;
  request: PageRequest;
}

export async function importReport(ctx: AppContext, account: Account, id: string, request: PageRequest): Promise<ImportReport> {
  const run = await importsRepository.find(ctx.db, account.id, id);
  if (!run) throw new NotFoundError('Import');
  return { run, rows: await importsRepository.outcomesPage(ctx.db, account.id, id, request), request };
}

/** `POST /api/v2/imports`: the whole run, answered when it is done, with the first page of its rows. */
export async function createImport(ctx: AppContext, account: Account, input: CreateImportInput): Promise<ImportReport> {
  const run = await runImport(ctx, account, await sourceOf(input), { dryRun: input.dry_run ?? false });
  return importReport(ctx, account, run.id, pageRequestFrom({}));
}
