import type { Server } from 'node:http';
import { createApp } from './app';
import { createContext } from './bootstrap';
import { ConfigError, loadConfig } from './config';
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
  const { config, generatedKeyFile } = loaded;
  const logger = createLogger(config.LOG_LEVEL);
  if (generatedKeyFile) {
    logger.warn('APP_KEY was not set: generated a new key and stored it with mode 0600; back it up', { keyFile: generatedKeyFile });
  }
  const { ctx } = await createContext(config, logger);
  const app = createApp(ctx);
  const server: Server = app.listen(config.PORT, () => {
    logger.info('listening', { port: config.PORT, publicUrl: config.publicUrl, database: config.DATABASE_URL.split(':')[0] });
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    server.close(() => {
      ctx.db.destroy().finally(() => process.exit(0));
    });
    // Connections kept alive by clients must not hold the process forever.
    setTimeout(() => server.closeAllConnections(), 10_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
