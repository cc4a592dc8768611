import { accessSync, constants, createReadStream } from 'node:fs';
import type { Command } from 'commander';
import type { AppContext } from '../context';
import type { Account } from '../modules/accounts/account';
import { ValidationError, errorMessage } from '../errors';
import { pageRequestFrom } from '../validation/pagination';
import { requireAccount } from '../modules/accounts/service';
import { CSV_ENCODINGS, type CsvBytes, type CsvEncoding } from '../modules/imports/csvFile';
import { checkCsvFile, csvSource } from '../modules/imports/csvSource';
import { vatRateOf } from '../modules/imports/importVat';
import { importReport, runImport, type ImportCounts } from '../modules/imports/service';
import type { ImportSource } from '../modules/imports/sources';
import { providerSubscriptionsSource } from '../modules/imports/providerSubscriptionsSource';
import { storeSubscriptionsSource } from '../modules/imports/storeSubscriptionsSource';
import { MAX_PER_PAGE } from '../paging';
import { CliUsageError, type CliIo } from './io';

/** How often a long run says how far it got (rows). */
const PROGRESS_EVERY = 100;

const OUTCOME_WORDS = {
  created: 'created',
  would_create: 'would create',
  skipped: 'skipped',
  would_skip: 'would skip',
  exists: 'imported before',
  failed: 'failed',
} as const;

/** How much of the file is read at a time: the file is streamed, never held whole. */
const READ_PIECE = 64 * 1024;

/** The file as a stream of bytes, opened again by each reader (the check, then the run). */
function fileBytes(file: string): CsvBytes {
  try {
    accessSync(file, constants.R_OK);
  } catch (error) {
    throw new CliUsageError(`cannot read ${file}: ${errorMessage(error)}`);
  }
  return () => createReadStream(file, { highWaterMark: READ_PIECE });
}

function encodingOf(name: string | undefined): CsvEncoding {
  const wanted = (name ?? 'utf-8')
    .toLowerCase()
    .replace(/^utf8$/, 'utf-8')
    .replace(/^cp1252$/, 'windows-1252');
  const known = CSV_ENCODINGS.find((encoding) => encoding === wanted);
  if (!known) throw new CliUsageError(`--encoding must be one of ${CSV_ENCODINGS.join(', ')}`);
  return known;
}

function vatRateOption(text: string | undefined): string | null {
  if (text === undefined) return null;
  const rate = vatRateOf(text);
  if (rate === null) throw new CliUsageError(`--vat-rate must be a VAT percentage such as 21 or 9, not "${text}"`);
  return rate;
}

const VAT_RATE_HELP = 'the VAT percentage the amounts include (such as 21 or 9), for the invoices; without it they are not issued';

const countsLine = (counts: ImportCounts, dryRun: boolean) =>
  `${counts.total} rows: ${counts.created} ${dryRun ? 'would be created' : 'created'}, ${counts.skipped} skipped, ${counts.failed} failed`;

/** Every row of the run, one line each: what was (or would be) made, or what was skipped or failed and why. */
async function printReport(ctx: AppContext, io: CliIo, account: Account, importId: string): Promise<void> {
  for (let page = 1; ; page += 1) {
    const { rows } = await importReport(ctx, account, importId, { ...pageRequestFrom({ per_page: MAX_PER_PAGE }), page });
    for (const row of rows.items) {
      const where = row.line === null ? row.source_id : `line ${row.line} ${row.source_id}`;
      const why = row.field ? `${row.field}: ${row.reason ?? ''}` : (row.reason ?? '');
      io.out(`${where}: ${OUTCOME_WORDS[row.outcome]}${why ? ` — ${why}` : ''}`);
    }
    if (page * MAX_PER_PAGE >= rows.total) break;
  }
}

/** Runs the import with a progress line on stderr, then prints every row and the counts. */
async function runAndPrint(ctx: AppContext, io: CliIo, account: Account, source: ImportSource, dryRun: boolean): Promise<void> {
  const run = await runImport(ctx, account, source, {
    dryRun,
    onProgress: (counts) => {
      if (counts.total % PROGRESS_EVERY === 0) io.err(`import: ${countsLine(counts, dryRun)} so far`);
    },
  });
  await ctx.background.idle();
  await printReport(ctx, io, account, run.id);
  io.out(`${dryRun ? 'dry run' : 'import'} ${run.id}: ${countsLine(run, dryRun)}`);
}

export function registerImportCommands(program: Command, ctx: AppContext, io: CliIo): void {
  const imports = program.command('import').description('import running subscriptions from elsewhere (docs/moving-over.md)');
  const dryRunHelp = 'create nothing: print what would be created and what is skipped and why';

  imports
    .command('csv')
    .description('import SEPA mandates and their subscriptions from a CSV file; run it with --dry-run first')
    .requiredOption('--account <name>', 'account name')
    .option('--dry-run', dryRunHelp)
    .option('--encoding <name>', "the file's encoding: utf-8 (default) or windows-1252 (converted as it is read)")
    .option('--vat-rate <percent>', `${VAT_RATE_HELP} (rows without a vat_rate column)`)
    .argument('<file>', 'the CSV file (columns: docs/moving-over.md)')
    .action(async (file: string, options: { account: string; dryRun?: boolean; encoding?: string; vatRate?: string }) => {
      const account = await requireAccount(ctx.db, options.account);
      const encoding = encodingOf(options.encoding);
      const vatRate = vatRateOption(options.vatRate);
      const bytes = fileBytes(file);
      try {
        await checkCsvFile(bytes, encoding);
      } catch (error) {
        if (error instanceof ValidationError) throw new CliUsageError(`${file}: ${Object.values(error.fields).flat().join(' ')}`);
        throw error;
      }
      await runAndPrint(ctx, io, account, csvSource(bytes, { encoding, vatRate }), options.dryRun === true);
    });

  imports
    .command('mollie-subscriptions')
    .description(
      "take over the subscriptions Mollie bills itself for the account's customers, and cancel them there; run it with --dry-run first",
    )
    .requiredOption('--account <name>', 'account name')
    .option('--dry-run', `${dryRunHelp} (reads Mollie only)`)
    .option('--vat-rate <percent>', VAT_RATE_HELP)
    .action(async (options: { account: string; dryRun?: boolean; vatRate?: string }) => {
      const account = await requireAccount(ctx.db, options.account);
      const vatRate = vatRateOption(options.vatRate);
      await runAndPrint(ctx, io, account, providerSubscriptionsSource({ vatRate }), options.dryRun === true);
    });

  imports
    .command('woocommerce-subscriptions')
    .description("take over the connected store's WooCommerce Subscriptions billed by Mollie's plugin; run it with --dry-run first")
    .requiredOption('--account <name>', 'account name')
    .option('--dry-run', `${dryRunHelp} (changes nothing in the store)`)
    .action(async (options: { account: string; dryRun?: boolean }) => {
      const account = await requireAccount(ctx.db, options.account);
      await runAndPrint(ctx, io, account, storeSubscriptionsSource(), options.dryRun === true);
    });
}
