import { registerAccountBillingCommands } from './accountBilling';
import { registerAccountTakeoverCommands } from './accountTakeover';
import type { Command } from 'commander';
import type { AppContext } from '../context';
import { accountsRepository } from '../modules/accounts/repository';
import { accountOverview } from '../modules/accounts/providerSettings';
import { setBookkeepingSystem } from '../modules/accounts/service';
import { allowedActionsOf, DEFAULT_MAX_PAUSE_DAYS, PORTAL_ACTIONS } from '../modules/accounts/portalSettings';
import { CliUsageError, type CliIo } from './io';
import { registerProfileCommands } from './accountProfile';
import { registerInvoicingCommands } from './accountInvoicing';
import { registerSetProvider } from './setProvider';
import { connectMoneybirdFromCli } from './moneybird';
import { disconnectMoneybird } from '../bookkeeping/moneybird/connection';

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
    .command('set-bookkeeping [system]')
    .description(
      'connect an account to a bookkeeping system (subscriptions then need workflow_id and docstyle_id): ' +
        '`moneybird --administration <id> --token -` (token from standard input), `--system <name>`, or --none',
    )
    .requiredOption('--account <name>', 'account name')
    .option('--system <name>', 'bookkeeping system name, e.g. moneybird')
    .option('--administration <id>', 'Moneybird administration id')
    .option('--token <token>', 'Moneybird API token; `-` reads it from standard input (keeps it out of the shell history)')
    .option('--send-invoices', 'Moneybird: send each invoice to the customer (default: leave it as a draft)')
    .option('--none', 'remove the bookkeeping system')
    .action(
      async (
        positional: string | undefined,
        options: { account: string; system?: string; none?: boolean; administration?: string; token?: string; sendInvoices?: boolean },
      ) => {
        if (positional !== undefined && options.system !== undefined) throw new CliUsageError('Name the system once');
        const named = positional ?? options.system;
        if ((named === undefined) === (options.none === undefined)) {
          throw new CliUsageError('Pass either a system (moneybird, or --system <name>) or --none');
        }
        const system = named?.trim() ?? null;
        if (system !== null && !SYSTEM_NAME.test(system)) {
          throw new CliUsageError('A bookkeeping system name is 1 to 64 letters, digits, dots, dashes or underscores');
        }
        if (system === 'moneybird') {
          await connectMoneybirdFromCli(ctx, io, options);
          return;
        }
        if (options.administration !== undefined || options.token !== undefined || options.sendInvoices !== undefined) {
          throw new CliUsageError('--administration, --token and --send-invoices go with moneybird only');
        }
        const account = await accountsRepository.findByName(ctx.db, options.account);
        if (account) await disconnectMoneybird(ctx.db, account.id);
        await setBookkeepingSystem(ctx.db, ctx.clock, options.account, system);
        io.out(
          system === null
            ? `Account "${options.account}" has no bookkeeping system`
            : `Account "${options.account}" uses bookkeeping system "${system}"; subscriptions now need workflow_id and docstyle_id`,
        );
      },
    );

  registerProfileCommands(accounts, ctx, io);
  registerInvoicingCommands(accounts, ctx, io);
  registerSetProvider(accounts, ctx, io);

  accounts
    .command('show')
    .description('show an account: ids, its profile and portal settings, the provider in use, the secret that signs its webhook events')
    .requiredOption('--account <name>', 'account name')
    .action(async (options: { account: string }) => {
      const { account, provider, providerLines, webhookSecret, providerWebhookUrl } = await accountOverview(ctx, options.account);
      const line = (label: string, value: string) => io.out(`${`${label}:`.padEnd(22)}${value}`);
      line('id', account.id);
      line('name', account.name);
      line('public ref', account.public_ref);
      line('bookkeeping system', account.bookkeeping_system ?? 'none');
      line('display name', account.display_name ?? `none (shows "${account.name}")`);
      line('contact e-mail', account.contact_email ?? 'none');
      line('creditor id', account.creditor_id ?? 'none');
      const allowed = allowedActionsOf(account.portal_allowed_actions);
      line('portal allows', PORTAL_ACTIONS.filter((action) => allowed.has(action)).join(', ') || 'nothing');
      line('portal max pause', `${account.portal_max_pause_days ?? DEFAULT_MAX_PAUSE_DAYS} days`);
      line('subscription mails', account.portal_mails === 'store' ? "store (the store's plugin)" : 'service');
      line('provider', provider);
      line('profile id', account.provider_profile_id ?? 'none');
      for (const [label, value] of providerLines) line(label, value);
      line('webhook secret', webhookSecret);
      line('provider webhook url', providerWebhookUrl);
    });

  registerAccountBillingCommands(accounts, ctx, io);
  registerAccountTakeoverCommands(accounts, ctx, io);
}
