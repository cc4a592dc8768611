import type { Command } from 'commander';
import type { AppContext } from '../context';
import { requireAccount } from '../modules/accounts/service';
import { accountTakeoverSettingsRepository } from '../modules/takeovers/repository';
import { toDbDateTime } from '../time';
import { CliUsageError, type CliIo } from './io';

/** Where a new mandate takes over the customer's subscriptions beyond the takeover links (docs/takeover.md). */
export function registerAccountTakeoverCommands(accounts: Command, ctx: AppContext, io: CliIo): void {
  accounts
    .command('set-takeover')
    .description("whether a store checkout's new mandate takes over the customer's active subscriptions (default off)")
    .requiredOption('--account <name>', 'account name')
    .requiredOption(
      '--store-checkout <on|off>',
      'on: the mandate of a paid store checkout becomes the mandate of the customer’s subscriptions',
    )
    .action(async (options: { account: string; storeCheckout: string }) => {
      if (options.storeCheckout !== 'on' && options.storeCheckout !== 'off') throw new CliUsageError('--store-checkout must be on or off');
      const account = await requireAccount(ctx.db, options.account);
      const on = options.storeCheckout === 'on';
      await accountTakeoverSettingsRepository.setStoreCheckout(ctx.db, account.id, on, toDbDateTime(ctx.clock.now()));
      io.out(
        on
          ? `Account "${account.name}": the mandate of a paid store checkout takes over the customer's subscriptions`
          : `Account "${account.name}": a store checkout's mandate is used by its own subscriptions only`,
      );
    });
}
