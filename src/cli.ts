import winston from 'winston';
import { createContext } from './bootstrap';
import { runCli } from './cli/run';
import type { CliIo } from './cli/io';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';

const io: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
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
    await ctx.db.destroy();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const reason = error instanceof ConfigError ? error.message : `Could not run: ${error instanceof Error ? error.message : String(error)}`;
    process.stderr.write(`${reason}\n`);
    process.exitCode = 1;
  },
);
