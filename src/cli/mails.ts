import type { Command } from 'commander';
import type { AppContext } from '../context';
import { mailsRepository } from '../mail/repository';
import { MAIL_STATUSES, type MailStatus } from '../mail/rows';
import { accountsRepository } from '../modules/accounts/repository';
import { CliUsageError, type CliIo } from './io';

const DEFAULT_LIMIT = 20;

/**
 * The mail outbox on the operator's terminal: without SMTP_URL this is where mails are read. It
 * shows recipients — this is the operator's own screen, not a log.
 */
export function registerMailCommands(program: Command, ctx: AppContext, io: CliIo): void {
  const mails = program.command('mails').description('e-mails sent, queued or kept (without SMTP_URL)');

  mails
    .command('list')
    .description('newest first: created (UTC), id, status, template, locale, recipient, subject')
    .option('--account <name>', 'only this account')
    .option('--status <status>', `only ${MAIL_STATUSES.join(', ')}`)
    .option('--limit <n>', `at most n mails (default ${DEFAULT_LIMIT})`)
    .action(async (options: { account?: string; status?: string; limit?: string }) => {
      const limit = options.limit === undefined ? DEFAULT_LIMIT : Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new CliUsageError('--limit is a whole number from 1 to 1000');
      if (options.status !== undefined && !(MAIL_STATUSES as readonly string[]).includes(options.status)) {
        throw new CliUsageError(`--status is one of ${MAIL_STATUSES.join(', ')}`);
      }
      let accountId: string | undefined;
      if (options.account !== undefined) {
        const account = await accountsRepository.findByName(ctx.db, options.account);
        if (!account) throw new CliUsageError(`No account named "${options.account}"`);
        accountId = account.id;
      }
      const rows = await mailsRepository.newest(ctx.db, { limit, accountId, status: options.status as MailStatus | undefined });
      if (!rows.length) io.out('No mails');
      for (const mail of rows) {
        io.out(`${mail.created_at}  ${mail.id}  ${mail.status}  ${mail.template}  ${mail.locale}  ${mail.recipient}  ${mail.subject}`);
      }
    });

  mails
    .command('show <id>')
    .description('one mail: its headers and plain-text body')
    .action(async (id: string) => {
      const mail = await mailsRepository.find(ctx.db, id);
      if (!mail) throw new CliUsageError(`No mail ${id}`);
      for (const line of [
        `Id: ${mail.id}`,
        `Status: ${mail.status}${mail.last_error ? ` (${mail.last_error})` : ''}`,
        `Created: ${mail.created_at} UTC`,
        `To: ${mail.recipient}`,
        `From: ${ctx.config.MAIL_FROM}`,
        `Subject: ${mail.subject}`,
        '',
        ...mail.text_body.split('\n'),
      ]) {
        io.out(line);
      }
    });
}
