import type { Command } from 'commander';
import type { AppContext } from '../context';
import { createToken, listTokens, revokeToken } from '../modules/accounts/service';
import { formatDateTime } from '../time';
import type { CliIo } from './io';

export function registerTokenCommands(program: Command, ctx: AppContext, io: CliIo): void {
  const tokens = program.command('tokens').description('API tokens (each belongs to one account)');

  tokens
    .command('create')
    .description('create a token, and the account if it does not exist; the token is shown once, on the last line')
    .requiredOption('--account <name>', 'account name')
    .action(async (options: { account: string }) => {
      const { account, token } = await createToken(ctx.db, ctx.clock, options.account);
      io.out(`Token for account "${account.name}" (${account.id}); it is shown only now, store it safely:`);
      io.out(token);
    });

  tokens
    .command('list')
    .description("list an account's tokens: prefix, created at, last used, state")
    .requiredOption('--account <name>', 'account name')
    .action(async (options: { account: string }) => {
      const rows = await listTokens(ctx.db, options.account);
      if (!rows.length) io.out(`Account "${options.account}" has no tokens`);
      const zone = ctx.config.APP_TIMEZONE;
      for (const row of rows) {
        const lastUsed = row.last_used_at === null ? 'never' : formatDateTime(row.last_used_at, zone);
        const state = row.revoked_at === null ? 'active' : `revoked ${formatDateTime(row.revoked_at, zone)}`;
        io.out(`${row.prefix}  created ${formatDateTime(row.created_at, zone)}  last used ${lastUsed}  ${state}`);
      }
    });

  tokens
    .command('revoke')
    .description('revoke a token by the prefix that `tokens list` shows; it answers 401 from then on')
    .argument('<prefix>', 'token prefix, e.g. rps_AbC12345')
    .action(async (prefix: string) => {
      await revokeToken(ctx.db, ctx.clock, prefix);
      io.out(`Revoked token ${prefix.trim()}`);
    });
}
