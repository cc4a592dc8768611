import type { Command } from 'commander';
import type { AppContext } from '../context';
import { requireAccount } from '../modules/accounts/service';
import { accountsRepository } from '../modules/accounts/repository';
import { FOLLOW_UP_TYPES, ON_FAILURE_ACTIONS, type FollowUpType, type OnFailureAction } from '../modules/follow-ups/repository';
import { followUpSettingsOf, setFollowUpSettings } from '../modules/follow-ups/settings';
import { toDbDateTime } from '../time';
import { CliUsageError, type CliIo } from './io';

function integerIn(text: string | undefined, name: string, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
    throw new CliUsageError(`${name} must be a whole number from ${min} to ${max}`);
  return Number(text);
}

function oneOf<T extends string>(text: string | undefined, name: string, allowed: readonly T[]): T | undefined {
  if (text === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(text)) throw new CliUsageError(`${name} must be one of ${allowed.join(', ')}`);
  return text as T;
}

/** Account settings of billing: follow-ups, the events endpoint, pre-notification of direct debits. */
export function registerAccountBillingCommands(accounts: Command, ctx: AppContext, io: CliIo): void {
  accounts
    .command('set-follow-ups')
    .description('how failed charges are followed up (defaults: --type both --max-retries 3 --retry-days 3 --on-failure pause)')
    .requiredOption('--account <name>', 'account name')
    .option('--type <type>', 'retry (charge again), link (e-mail a payment link) or both (retries, then the link)')
    .option('--max-retries <n>', 'retries of a failed charge, 1 to 3')
    .option('--retry-days <n>', 'days between a failure and its retry, 1 to 30')
    .option('--on-failure <action>', 'when a follow-up fails: pause or cancel the subscription, or keep it')
    .action(async (options: { account: string; type?: string; maxRetries?: string; retryDays?: string; onFailure?: string }) => {
      const account = await requireAccount(ctx.db, options.account);
      const current = await followUpSettingsOf(ctx.db, account.id);
      const settings = {
        type: oneOf<FollowUpType>(options.type, '--type', FOLLOW_UP_TYPES) ?? current.type,
        maxRetries: integerIn(options.maxRetries, '--max-retries', 1, 3) ?? current.maxRetries,
        retryDays: integerIn(options.retryDays, '--retry-days', 1, 30) ?? current.retryDays,
        onFailure: oneOf<OnFailureAction>(options.onFailure, '--on-failure', ON_FAILURE_ACTIONS) ?? current.onFailure,
      };
      await setFollowUpSettings(ctx.db, account.id, settings, toDbDateTime(ctx.clock.now()));
      io.out(
        `Account "${account.name}" follows up failed charges by ${settings.type}: at most ${settings.maxRetries} retries, ` +
          `${settings.retryDays} days apart; on failure: ${settings.onFailure}`,
      );
    });

  accounts
    .command('set-webhook')
    .description('the endpoint that receives signed events of every payment, subscription and follow-up of the account, or --none')
    .requiredOption('--account <name>', 'account name')
    .option('--url <url>', 'https:// (or http:// outside production) address')
    .option('--none', 'send no account events')
    .action(async (options: { account: string; url?: string; none?: boolean }) => {
      if ((options.url === undefined) === (options.none === undefined)) throw new CliUsageError('Pass either --url <url> or --none');
      const account = await requireAccount(ctx.db, options.account);
      let url: string | null = null;
      if (options.url !== undefined) {
        let parsed: URL;
        try {
          parsed = new URL(options.url);
        } catch {
          throw new CliUsageError('--url must be an absolute http(s) address');
        }
        const allowed = ctx.config.NODE_ENV === 'production' ? ['https:'] : ['https:', 'http:'];
        if (!allowed.includes(parsed.protocol))
          throw new CliUsageError(`--url must start with ${allowed.map((p) => `${p}//`).join(' or ')}`);
        if (options.url.length > 2048) throw new CliUsageError('--url is longer than 2048 characters');
        url = options.url;
      }
      await accountsRepository.setEventsUrl(ctx.db, account.id, url, toDbDateTime(ctx.clock.now()));
      io.out(
        url
          ? `Account "${account.name}" sends its events to ${url}, signed with its webhook secret (accounts show)`
          : `Account "${account.name}" sends no account events`,
      );
    });

  accounts
    .command('set-pre-notification')
    .description('e-mail customers the date and amount of each direct debit this many days before it, or --none')
    .requiredOption('--account <name>', 'account name')
    .option('--days <n>', 'days before the charge, 1 to 14')
    .option('--none', 'send no pre-notifications')
    .action(async (options: { account: string; days?: string; none?: boolean }) => {
      if ((options.days === undefined) === (options.none === undefined)) throw new CliUsageError('Pass either --days <n> or --none');
      const account = await requireAccount(ctx.db, options.account);
      const days = integerIn(options.days, '--days', 1, 14) ?? null;
      await accountsRepository.setPreNotificationDays(ctx.db, account.id, days, toDbDateTime(ctx.clock.now()));
      io.out(
        days
          ? `Account "${account.name}" notifies customers ${days} days before each direct debit`
          : `Account "${account.name}" sends no pre-notifications`,
      );
    });
}
