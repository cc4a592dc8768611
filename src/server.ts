import { createApp } from './app';
import { createContext } from './bootstrap';
import { ConfigError, loadConfig } from './config';
import { listenForRequests } from './http/listen';
import { allJobs } from './jobs';
import { startScheduler } from './jobs/scheduler';
import { createLogger } from './logger';
import { jobGraceWithin, shutDown } from './shutdown';
import { errorMessage } from './errors';

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
  const { config, generatedKeyFile } = loaded;
  const logger = createLogger(config.LOG_LEVEL);
  if (generatedKeyFile) {
    logger.warn('APP_KEY was not set: generated a new key and stored it with mode 0600; back it up', { keyFile: generatedKeyFile });
  }
  if (config.sandboxEnabled && config.NODE_ENV === 'production') {
    logger.warn(
      'SANDBOX=on in production: the /sandbox checkout pages exist, where anyone can mark a payment of an account without a provider ' +
        'key of its own paid; use it only for a demo',
    );
  }
  const { ctx } = await createContext(config, logger);
  const requests = await listenForRequests(createApp(ctx), { port: config.PORT, host: config.HOST });
  logger.info('listening', {
    host: config.HOST ?? 'all interfaces',
    port: config.PORT,
    publicUrl: config.publicUrl,
    database: config.DATABASE_URL.split(':')[0],
  });
  const scheduler = config.CRON === 'off' ? null : startScheduler(ctx, allJobs, jobGraceWithin(config.SHUTDOWN_TIMEOUT_MS));
  if (!scheduler) logger.info('job scheduler not started: CRON=off');

  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) {
      // A second Ctrl-C means "now": running jobs lose their lease by expiry.
      logger.warn('second signal while shutting down; exiting at once', { signal });
      process.exit(1);
    }
    stopping = true;
    logger.info('shutting down', { signal });
    shutDown({ requests, scheduler, ctx, timeoutMs: config.SHUTDOWN_TIMEOUT_MS }).then(
      // Past the deadline the exit is not clean: a supervisor (systemd, Kubernetes) should see that.
      (outcome) => process.exit(outcome === 'finished' ? 0 : 1),
      (error: unknown) => {
        logger.error('shutdown failed', { error: errorMessage(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start: ${errorMessage(error)}\n`);
  process.exit(1);
});
