import type { Command } from 'commander';
import type { AppContext } from '../context';
import { accountsRepository } from '../modules/accounts/repository';
import { setBookkeepingSystem } from '../modules/accounts/service';
import { CliUsageError, type CliIo } from './io';

/** Fits accounts.bookkeeping_system. */
const SYSTEM_NAME = /^[\w.-]{1,64}$/;

export function registerAccountCommands(program: Command, ctx: AppContext, io: CliIo): void {
  const accounts = program.command('accounts').description('accounts (one merchant or shop each)');

  accounts
    .command('list')
    .description('list accounts: id, bookkeeping system, name')
    .action(async () => {
      const rows = await accountsRepository.list(ctx.db);
      if (!rows.length) io.out('No accounts yet; `tokens create --account <name>` creates one');
      for (const row of rows) io.out(`${row.id}  bookkeeping ${row.bookkeeping_system ?? 'none'}  ${row.name}`);
    });

  accounts
    .command('set-bookkeeping')
    .description('connect an account to a bookkeeping system (subscriptions then need workflow_id and docstyle_id), or --none')
    .requiredOption('--account <name>', 'account name')
    .option('--system <name>', 'bookkeeping system name, e.g. moneybird')
    .option('--none', 'remove the bookkeeping system')
    .action(async (options: { account: string; system?: string; none?: boolean }) => {
      if ((options.system === undefined) === (options.none === undefined)) {
        throw new CliUsageError('Pass either --system <name> or --none');
      }
      const system = options.system?.trim() ?? null;
      if (system !== null && !SYSTEM_NAME.test(system)) {
        throw new CliUsageError('A bookkeeping system name is 1 to 64 letters, digits, dots, dashes or underscores');
      }
      await setBookkeepingSystem(ctx.db, ctx.clock, options.account, system);
      io.out(
        system === null
          ? `Account "${options.account}" has no bookkeeping system`
          : `Account "${options.account}" uses bookkeeping system "${system}"; subscriptions now need workflow_id and docstyle_id`,
      );
    });
}
