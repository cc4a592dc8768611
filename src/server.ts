import type { Server } from 'node:http';
import { createApp } from './app';
import { createContext } from './bootstrap';
import { ConfigError, loadConfig } from './config';
import { listenForRequests } from './http/listen';
import { allJobs } from './jobs';
import { startScheduler } from './jobs/scheduler';
import { createLogger } from './logger';

async function main(): Promise<void> {
  let loaded;
  try {
    loaded = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { config, generatedKeyFile, keyFile } = loaded;
  const logger = createLogger(config.LOG_LEVEL);
  if (generatedKeyFile) {
    logger.warn('APP_KEY was not set: generated a new key and stored it with mode 0600; back it up', { keyFile: generatedKeyFile });
  }
  if (keyFile && config.NODE_ENV === 'production') {
    // Whoever copies the data directory (a backup, a stolen disk) then has the key to its secrets too.
    logger.warn('APP_KEY is read from a file beside the data it protects; in production set APP_KEY from a secret store', { keyFile });
  }
  const { ctx } = await createContext(config, logger);
  const app = createApp(ctx);
  const server: Server = listenForRequests(app, config.PORT, () => {
    logger.info('listening', { port: config.PORT, publicUrl: config.publicUrl, database: config.DATABASE_URL.split(':')[0] });
  });
  const scheduler = config.CRON === 'off' ? null : startScheduler(ctx, allJobs);
  if (!scheduler) logger.info('job scheduler not started: CRON=off');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      // A second Ctrl-C means "now": running jobs lose their lease by expiry.
      logger.warn('second signal while shutting down; exiting at once', { signal });
      process.exit(1);
    }
    stopping = true;
    logger.info('shutting down: no new requests accepted', { signal });
    const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Connections kept alive by clients must not hold the process forever.
    setTimeout(() => server.closeAllConnections(), 10_000).unref();
    if (scheduler) {
      logger.info('shutting down: waiting for running jobs');
      await scheduler.stop();
    }
    await serverClosed;
    logger.info('shutting down: requests finished; waiting for background work');
    await ctx.background.idle();
    await Promise.all([ctx.db.destroy(), ctx.rateLimits.close()]);
    logger.info('shutting down: database closed; bye');
  };
  const onSignal = (signal: string) => {
    stop(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', { error: error instanceof Error ? error.message : String(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
