import type { Command } from 'commander';
import type { AppContext } from '../context';
import { runBilling } from '../modules/billing/run';
import { runFollowUps } from '../modules/follow-ups/progress';
import { todayIn } from '../time';
import { parseCalendarDate } from '../time/calendar';
import { CliUsageError, type CliIo } from './io';

/** `--date`: a real calendar day, or today in APP_TIMEZONE. */
export function dateOption(ctx: AppContext, date: string | undefined): string {
  if (date === undefined) return todayIn(ctx);
  if (!parseCalendarDate(date)) throw new CliUsageError(`--date must be a date as YYYY-MM-DD, not "${date}"`);
  return date;
}

/**
 * The date a billing run may bill as of: today or earlier. A later date makes every charge due by
 * then now, so customers are debited early; only `--force` does that.
 */
function billingDate(ctx: AppContext, date: string | undefined, force: boolean): string {
  const billing = dateOption(ctx, date);
  const today = todayIn(ctx);
  if (billing > today && !force) {
    throw new CliUsageError(
      `--date ${billing} is after today (${today} in ${ctx.config.APP_TIMEZONE}): billing ahead of time charges customers early, ` +
        'before their charges are due; add --force to do it anyway',
    );
  }
  return billing;
}

export function registerBillingCommands(program: Command, ctx: AppContext, io: CliIo): void {
  program
    .command('billing')
    .description('subscription billing')
    .command('run')
    .description('one billing pass: charge every subscription with a charge due on or before the date, once per period')
    .option('--date <YYYY-MM-DD>', 'bill as of this date (default: today in APP_TIMEZONE); a later day only with --force')
    .option('--force', 'bill as of a date after today: charges customers early')
    .action(async (options: { date?: string; force?: boolean }) => {
      const summary = await runBilling(ctx, billingDate(ctx, options.date, options.force === true));
      await ctx.background.idle();
      io.out(
        `billing ${summary.date}: ${summary.due} due, ${summary.charged} charged, ${summary.skipped} skipped, ` +
          (`${summary.notCharged} not charged (mandate), ` +
            `${summary.failed} failed; ${summary.cancelled} cancelled, ${summary.resumed} resumed`),
      );
    });
}

export function registerFollowUpCommands(program: Command, ctx: AppContext, io: CliIo): void {
  program
    .command('follow-ups')
    .description('follow-ups of failed payments')
    .command('run')
    .description('one pass: charge due retries, e-mail due payment links, fail follow-ups whose link expired')
    .option('--date <YYYY-MM-DD>', 'as of this date (default: today in APP_TIMEZONE)')
    .action(async (options: { date?: string }) => {
      const run = await runFollowUps(ctx, dateOption(ctx, options.date));
      await ctx.background.idle();
      io.out(`follow-ups: ${run.retried} retried, ${run.linked} links sent, ${run.failed} failed, ${run.errors} errors`);
    });
}
