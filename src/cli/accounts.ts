import { registerAccountBillingCommands } from './accountBilling';
import type { Command } from 'commander';
import type { AppContext } from '../context';
import { accountsRepository } from '../modules/accounts/repository';
import { accountOverview, clearProviderSettings, setProviderSettings } from '../modules/accounts/providerSettings';
import { setBookkeepingSystem, setDisplayName } from '../modules/accounts/service';
import { maskMollieKey } from '../providers/mollie/settings';
import { CliUsageError, type CliIo } from './io';

/** Fits accounts.bookkeeping_system. */
const SYSTEM_NAME = /^[\w.-]{1,64}$/;

/** `--mollie-api-key -`: the key is read from standard input, as `-` means for many tools. */
const FROM_STDIN = '-';

/** The first line of standard input, trimmed; a key typed at a prompt or piped from a file or secret store. */
async function mollieKeyFromStdin(io: CliIo): Promise<string> {
  const text = await io.readStdin('Mollie API key: ');
  const key = (text.split(/\r?\n/, 1)[0] ?? '').trim();
  if (!key) {
    throw new CliUsageError('No Mollie API key on standard input: --mollie-api-key - reads the key from the first line of standard input');
  }
  return key;
}

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

  accounts
    .command('set-profile')
    .description('the merchant name buyers see on payment pages and in e-mails (default: the account name)')
    .requiredOption('--account <name>', 'account name')
    .option('--display-name <text>', 'name shown to buyers, at most 191 characters; "" clears it')
    .option('--none', 'show the account name again')
    .action(async (options: { account: string; displayName?: string; none?: boolean }) => {
      if ((options.displayName === undefined) === (options.none === undefined)) {
        throw new CliUsageError('Pass either --display-name <text> or --none');
      }
      const displayName = options.displayName?.trim() || null;
      if (displayName !== null && displayName.length > 191) throw new CliUsageError('A display name is at most 191 characters');
      await setDisplayName(ctx.db, ctx.clock, options.account, displayName);
      io.out(
        displayName === null
          ? `Account "${options.account}" shows its own name to buyers`
          : `Account "${options.account}" shows "${displayName}" to buyers`,
      );
    });

  accounts
    .command('set-provider')
    .description("give an account its own Mollie credentials (stored encrypted with APP_KEY), or --none to use MOLLIE_API_KEY / the sandbox again")
    .requiredOption('--account <name>', 'account name')
    .option('--mollie-api-key <key>', 'test_… or live_… API key (or an access_… organization token, with --profile-id); - reads it from standard input, so it stays out of argv and shell history')
    .option('--profile-id <id>', 'Mollie website profile, pfl_…')
    .option('--mollie-api-url <url>', 'Mollie API root, https only (default https://api.mollie.com/v2/; for tests and proxies)')
    .option('--allow-live', 'accept a live_ key although NODE_ENV is not production')
    .option('--none', "remove the account's own Mollie credentials")
    .action(async (options: { account: string; mollieApiKey?: string; profileId?: string; mollieApiUrl?: string; allowLive?: boolean; none?: boolean }) => {
      if ((options.mollieApiKey === undefined) === (options.none === undefined)) {
        throw new CliUsageError('Pass either --mollie-api-key <key> or --none');
      }
      if (options.none) {
        if (options.profileId !== undefined || options.mollieApiUrl !== undefined || options.allowLive) {
          throw new CliUsageError('--none takes no other provider option');
        }
        await clearProviderSettings(ctx, options.account);
        io.out(`Account "${options.account}" has no Mollie key of its own; it uses MOLLIE_API_KEY if set, else the sandbox`);
        return;
      }
      const key = options.mollieApiKey === FROM_STDIN ? await mollieKeyFromStdin(io) : (options.mollieApiKey ?? '').trim();
      const saved = await setProviderSettings(ctx, options.account, {
        mollieApiKey: key,
        profileId: options.profileId ?? null,
        mollieApiUrl: options.mollieApiUrl ?? null,
        allowLive: options.allowLive === true,
      });
      const details = [saved.mollie_profile_id && `profile ${saved.mollie_profile_id}`, saved.mollie_api_url && `API ${saved.mollie_api_url}`].filter((part) => part);
      io.out(`Account "${options.account}" uses Mollie with key ${maskMollieKey(key)}${details.length ? ` (${details.join(', ')})` : ''}`);
    });

  accounts
    .command('show')
    .description("show an account: ids, the provider in use, and the secret that signs its webhook events")
    .requiredOption('--account <name>', 'account name')
    .action(async (options: { account: string }) => {
      const { account, provider, webhookSecret, providerWebhookUrl } = await accountOverview(ctx, options.account);
      const line = (label: string, value: string) => io.out(`${`${label}:`.padEnd(22)}${value}`);
      line('id', account.id);
      line('name', account.name);
      line('public ref', account.public_ref);
      line('bookkeeping system', account.bookkeeping_system ?? 'none');
      line('provider', provider);
      line('profile id', account.mollie_profile_id ?? 'none');
      if (account.mollie_api_url) line('mollie api url', account.mollie_api_url);
      line('webhook secret', webhookSecret);
      line('provider webhook url', providerWebhookUrl);
    });

  registerAccountBillingCommands(accounts, ctx, io);
}
