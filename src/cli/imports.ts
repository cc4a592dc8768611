import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Account, AppContext } from '../context';
import { ValidationError } from '../errors';
import { pageRequestFrom } from '../http/pagination';
import { requireAccount } from '../modules/accounts/service';
import { csvHeaderOf, csvSource } from '../modules/imports/csvSource';
import { mollieSubscriptionsSource } from '../modules/imports/mollieSource';
import { importReport, runImport, type ImportCounts } from '../modules/imports/service';
import type { ImportSource } from '../modules/imports/sources';
import { wcsSource } from '../modules/imports/wcsSource';
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

function readFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliUsageError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

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
    .argument('<file>', 'the CSV file (columns: docs/moving-over.md)')
    .action(async (file: string, options: { account: string; dryRun?: boolean }) => {
      const account = await requireAccount(ctx.db, options.account);
      const text = readFile(file);
      try {
        csvHeaderOf(text);
      } catch (error) {
        if (error instanceof ValidationError) throw new CliUsageError(`${file}: ${Object.values(error.fields).flat().join(' ')}`);
        throw error;
      }
      await runAndPrint(ctx, io, account, csvSource(text), options.dryRun === true);
    });

  imports
    .command('mollie-subscriptions')
    .description(
      "take over the subscriptions Mollie bills itself for the account's customers, and cancel them there; run it with --dry-run first",
    )
    .requiredOption('--account <name>', 'account name')
    .option('--dry-run', `${dryRunHelp} (reads Mollie only)`)
    .action(async (options: { account: string; dryRun?: boolean }) => {
      const account = await requireAccount(ctx.db, options.account);
      await runAndPrint(ctx, io, account, mollieSubscriptionsSource(), options.dryRun === true);
    });

  imports
    .command('woocommerce-subscriptions')
    .description("take over the connected store's WooCommerce Subscriptions billed by Mollie's plugin; run it with --dry-run first")
    .requiredOption('--account <name>', 'account name')
    .option('--dry-run', `${dryRunHelp} (changes nothing in the store)`)
    .action(async (options: { account: string; dryRun?: boolean }) => {
      const account = await requireAccount(ctx.db, options.account);
      await runAndPrint(ctx, io, account, wcsSource(), options.dryRun === true);
    });
}
