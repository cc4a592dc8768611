import type { Command } from 'commander';
import type { AppContext } from '../context';
import { NotFoundError } from '../errors';
import type { AccountRow } from '../modules/accounts/repository';
import { requireAccount } from '../modules/accounts/service';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, type Page, type PageRequest } from '../paging';
import { CliUsageError, type CliIo } from './io';

/** What `<records> list` takes besides its filters: the account and which page of the list. */
export interface ListOptions {
  account: string;
  page?: string;
  perPage?: string;
}

/** The options every `<records> list` has, the same paging as the API's `?page=&per_page=`. */
export function listCommand(group: Command, description: string): Command {
  return group
    .command('list')
    .description(description)
    .requiredOption('--account <name>', 'account name')
    .option('--page <n>', 'which page (default 1)')
    .option('--per-page <n>', `records per page (default ${DEFAULT_PER_PAGE}, at most ${MAX_PER_PAGE})`);
}

const wholeNumber = (value: string | undefined, fallback: number, name: string, max: number): number => {
  const number = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(number) || number < 1 || number > max) throw new CliUsageError(`${name} is a whole number from 1 to ${max}`);
  return number;
};

export function pageRequestOf(options: ListOptions): PageRequest {
  return {
    page: wholeNumber(options.page, 1, '--page', Number.MAX_SAFE_INTEGER),
    perPage: wholeNumber(options.perPage, DEFAULT_PER_PAGE, '--per-page', MAX_PER_PAGE),
    explicitPerPage: options.perPage !== undefined,
  };
}

/** `--status` checked against the statuses the records can have, so a typo is an error rather than an empty list. */
export function statusFilter(status: string | undefined, statuses: readonly string[]): string | undefined {
  if (status !== undefined && !statuses.includes(status)) throw new CliUsageError(`--status is one of ${statuses.join(', ')}`);
  return status;
}

/**
 * Prints one line per record, then where the page stands on stderr when the list goes on (stdout
 * keeps only records, for a script to read).
 */
export function printPage<T>(io: CliIo, page: Page<T>, request: PageRequest, plural: string, line: (item: T) => string): void {
  if (!page.items.length) io.out(request.page === 1 ? `No ${plural}` : `No ${plural} on page ${request.page}`);
  for (const item of page.items) io.out(line(item));
  const pages = Math.max(1, Math.ceil(page.total / request.perPage));
  if (pages > 1) io.err(`page ${request.page} of ${pages} (${page.total} ${plural}; --page <n> for another)`);
}

/** The presented record as the API answers it, indented: `show` prints what `GET …/{id}` returns. */
export function printRecord(io: CliIo, record: unknown): void {
  for (const line of JSON.stringify(record, null, 2).split('\n')) io.out(line);
}

/**
 * Runs a `show`: the account by name, then its record; a record the account does not have (the
 * service's not-found) is the user's mistake, one line, as an unknown account is.
 */
export async function showOf<T>(
  ctx: AppContext,
  options: { account: string; record: string; id: string },
  read: (account: AccountRow) => Promise<T>,
): Promise<T> {
  const account = await requireAccount(ctx.db, options.account);
  try {
    return await read(account);
  } catch (error) {
    if (error instanceof NotFoundError) throw new CliUsageError(`No ${options.record} ${options.id} in account "${account.name}"`);
    throw error;
  }
}
