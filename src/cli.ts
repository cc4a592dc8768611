import { createInterface } from 'node:readline';
import winston from 'winston';
import { createContext } from './bootstrap';
import { runCli } from './cli/run';
import type { CliIo } from './cli/io';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { errorMessage } from './errors';

/**
 * One line of standard input. On a terminal the prompt goes to stderr (stdout carries results only)
 * and what is typed is echoed; from a pipe or file the first line is taken, or '' when there is none.
 */
function readFirstLineOfStdin(prompt?: string): Promise<string> {
  const terminal = process.stdin.isTTY === true;
  const lines = createInterface({ input: process.stdin, output: terminal ? process.stderr : undefined, terminal });
  return new Promise((resolve) => {
    let firstLine: string | null = null;
    lines.once('line', (line) => {
      firstLine = line;
      lines.close();
    });
    // Ctrl-C at the prompt gives up, like an empty answer.
    lines.once('SIGINT', () => lines.close());
    lines.once('close', () => {
      // Read once per run: let go of stdin, or a writer that keeps its pipe open keeps us waiting.
      process.stdin.destroy();
      resolve(firstLine ?? '');
    });
    if (terminal && prompt) {
      lines.setPrompt(prompt);
      lines.prompt();
    }
  });
}

const io: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  readStdin: readFirstLineOfStdin,
};

async function main(): Promise<number> {
  const { config, generatedKeyFile } = loadConfig();
  if (generatedKeyFile) io.err(`APP_KEY was not set: generated a key in ${generatedKeyFile} (mode 0600); back it up`);
  // stdout carries command results only (a script reads the token from it): logs go to stderr.
  const logger = createLogger(config.LOG_LEVEL);
  logger.clear();
  logger.add(new winston.transports.Stream({ stream: process.stderr }));

  const { ctx, migrated: migratedOnOpen } = await createContext(config, logger);
  try {
    return await runCli(process.argv.slice(2), io, { ctx, migratedOnOpen });
  } finally {
    await Promise.all([ctx.db.destroy(), ctx.rateLimits.close()]);
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const reason = error instanceof ConfigError ? error.message : `Could not run: ${errorMessage(error)}`;
    process.stderr.write(`${reason}\n`);
    process.exitCode = 1;
  },
);
