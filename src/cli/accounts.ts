import { registerAccountBillingCommands } from './accountBilling';
import { registerAccountTakeoverCommands } from './accountTakeover';
import type { Command } from 'commander';
import type { AppContext } from '../context';
import { accountsRepository } from '../modules/accounts/repository';
import { accountOverview } from '../modules/accounts/providerSettings';
import { saveBookkeepingConnection, setBookkeepingSystem } from '../modules/accounts/service';
import { allowedActionsOf, DEFAULT_MAX_PAUSE_DAYS, PORTAL_ACTIONS } from '../modules/accounts/portalSettings';
import { CliUsageError, type CliIo } from './io';
import { registerProfileCommands } from './accountProfile';
import { registerInvoicingCommands } from './accountInvoicing';
import { registerSetProvider } from './setProvider';
import { bookkeepingAdapterNamed, bookkeepingAdapters } from '../bookkeeping';
import { BookkeepingSettingsError, type BookkeepingAdapter, type BookkeepingOptionValues } from '../bookkeeping/adapter';
import { requireAccount } from '../modules/accounts/service';
import { optionName } from '../providers/adapter';
import { queueWaitingInvoices } from '../modules/invoices/bookkeepingOutbox';

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

  // Invoices issued while the account named a system without an adapter waited `pending`, with no outbox row: the
  // system it names now, if this service has an adapter for it, gets them (the job sends them like every other invoice).
  const queueWaiting = async (accountName: string) => {
    const account = await accountsRepository.findByName(ctx.db, accountName);
    if (account) await queueWaitingInvoices(ctx.db, ctx.clock, account.id);
  };

  // Each system's own options (Moneybird's administration and token) come from its descriptor.
  const withSettings = bookkeepingAdapters().filter((adapter) => adapter.accountSettings !== null);
  const setBookkeeping = accounts
    .command('set-bookkeeping [system]')
    .description(
      'connect an account to a bookkeeping system (subscriptions then need workflow_id and docstyle_id): ' +
        '`moneybird --administration <id> --token -` (token from standard input), `--system <name>`, or --none',
    )
    .requiredOption('--account <name>', 'account name')
    .option('--system <name>', 'bookkeeping system name, e.g. moneybird');
  for (const adapter of withSettings)
    for (const option of adapter.accountSettings?.options ?? []) setBookkeeping.option(option.flags, option.description);
  setBookkeeping
    .option('--none', 'remove the bookkeeping system')
    .action(
      async (positional: string | undefined, options: BookkeepingOptionValues & { account: string; system?: string; none?: boolean }) => {
        if (positional !== undefined && options.system !== undefined) throw new CliUsageError('Name the system once');
        const named = positional ?? options.system;
        if ((named === undefined) === (options.none === undefined)) {
          const names = withSettings.map((adapter) => adapter.name).join(', ');
          throw new CliUsageError(`Pass either a system (${names ? `${names}, or ` : ''}--system <name>) or --none`);
        }
        const system = named?.trim() ?? null;
        if (system !== null && !SYSTEM_NAME.test(system)) {
          throw new CliUsageError('A bookkeeping system name is 1 to 64 letters, digits, dots, dashes or underscores');
        }
        const form = bookkeepingAdapterNamed(system)?.accountSettings;
        if (form && system !== null) {
          try {
            io.out(
              await form.connect(ctx, {
                values: options,
                account: () => requireAccount(ctx.db, options.account),
                readStdin: (prompt) => io.readStdin(prompt),
                saveConnection: (store) => saveBookkeepingConnection(ctx.db, ctx.clock, options.account, system, store),
              }),
            );
          } catch (error) {
            if (error instanceof BookkeepingSettingsError) throw new CliUsageError(error.message);
            throw error;
          }
          await queueWaiting(options.account);
          return;
        }
        const misplaced = withSettings.find((adapter) => optionsGiven(adapter, options));
        if (misplaced) throw new CliUsageError(`${flagList(misplaced)} go with ${misplaced.name} only`);
        const account = await accountsRepository.findByName(ctx.db, options.account);
        if (account) for (const adapter of bookkeepingAdapters()) await adapter.disconnect(ctx, account.id);
        await setBookkeepingSystem(ctx.db, ctx.clock, options.account, system);
        await queueWaiting(options.account);
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

/** The long names of a system's own options: `--administration, --token and --send-invoices`. */
function flagList(adapter: BookkeepingAdapter): string {
  const flags = (adapter.accountSettings?.options ?? []).map((option) => /--[\w-]+/.exec(option.flags)?.[0] ?? option.flags);
  return flags.length > 1 ? `${flags.slice(0, -1).join(', ')} and ${flags[flags.length - 1] ?? ''}` : (flags[0] ?? '');
}

/** Whether any of a system's own options was given. */
const optionsGiven = (adapter: BookkeepingAdapter, values: BookkeepingOptionValues) =>
  (adapter.accountSettings?.options ?? []).some((option) => values[optionName(option.flags)] !== undefined);
