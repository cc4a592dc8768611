import { Command, CommanderError } from 'commander';
import { AccountError } from '../modules/accounts/service';
import { registerAccountCommands } from './accounts';
import { AuditFailedError, registerAuditCommand } from './audit';
import { registerBillingCommands, registerFollowUpCommands } from './billing';
import { registerCustomerCommands } from './customers';
import type { CliEnvironment } from './environment';
import { CliUsageError, type CliIo } from './io';
import { registerImportCommands } from './imports';
import { JobFailedError, registerJobCommands } from './jobs';
import { registerMailCommands } from './mails';
import { registerMigrateCommand } from './migrate';
import { registerPaymentCommands } from './payments';
import { registerShopCommands } from './shops';
import { registerSubscriptionCommands } from './subscriptions';
import { registerTokenCommands } from './tokens';
import { errorMessage } from '../errors';

/** commander writes whole chunks ("text\n"); the io takes lines. */
function lineWriter(write: (line: string) => void) {
  return (chunk: string) => {
    for (const line of chunk.replace(/\n$/, '').split('\n')) write(line);
  };
}

function buildProgram(env: CliEnvironment, io: CliIo): Command {
  const program = new Command('cli')
    .description('Recurring payments service: tokens, accounts and maintenance')
    // Settings first: subcommands copy them when they are created.
    .exitOverride()
    .configureOutput({
      writeOut: lineWriter(io.out),
      writeErr: lineWriter(io.err),
      // An error and its "(Did you mean …?)" hint make one line.
      outputError: (message, write) => write(`${message.trim().replace(/\s*\n\s*/g, ' ')}\n`),
    })
    .showSuggestionAfterError(true);
  registerTokenCommands(program, env.ctx, io);
  registerAccountCommands(program, env.ctx, io);
  registerMigrateCommand(program, env, io);
  registerJobCommands(program, env.ctx, io);
  registerMailCommands(program, env.ctx, io);
  registerBillingCommands(program, env.ctx, io);
  registerFollowUpCommands(program, env.ctx, io);
  registerShopCommands(program, env.ctx, io);
  registerCustomerCommands(program, env.ctx, io);
  registerSubscriptionCommands(program, env.ctx, io);
  registerPaymentCommands(program, env.ctx, io);
  registerImportCommands(program, env.ctx, io);
  registerAuditCommand(program, env.ctx, io);
  return program;
}

/**
 * Runs one command line (without `node cli.js`) and returns the exit code. Mistakes of the user print
 * one line on stderr and give 1; so does an unexpected failure, whose stack goes to the debug log.
 */
export async function runCli(argv: string[], io: CliIo, env: CliEnvironment): Promise<number> {
  try {
    await buildProgram(env, io).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    // commander has already printed its own message (or the help) by the time it throws.
    if (error instanceof CommanderError) return error.exitCode;
    if (
      error instanceof AccountError ||
      error instanceof CliUsageError ||
      error instanceof JobFailedError ||
      error instanceof AuditFailedError
    ) {
      io.err(`error: ${error.message}`);
      return 1;
    }
    const message = errorMessage(error);
    // The stack helps a maintainer, not the user: it is logged at debug level only.
    env.ctx.logger.debug('cli command failed', {
      command: argv.slice(0, 2),
      error: message,
      stack: error instanceof Error ? error.stack : undefined,
    });
    io.err(`error: the command failed unexpectedly: ${message.split('\n')[0]} (LOG_LEVEL=debug shows details)`);
    return 1;
  }
}
