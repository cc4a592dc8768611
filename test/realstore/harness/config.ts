import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the suite's store and service live. Both listen in 8085–8095: the store delivers webhooks to
 * 127.0.0.1 only on those ports (a rule of the test store's set-up). Every value can be set in the environment.
 */
export const ROOT = path.resolve(__dirname, '../../..');
export const REALSTORE = path.resolve(process.env.RS_DIR ?? path.join(ROOT, '..', 'shared', 'realstore'));
export const RS_ROOT = process.env.RS_ROOT ?? '/tmp/rs-suite';
export const RS_PORT = Number(process.env.RS_PORT ?? 8085);
export const RS_DB = process.env.RS_DB ?? 'rs_suite';
export const SERVICE_PORT = Number(process.env.STORE_SUITE_SERVICE_PORT ?? 8091);

export const DOCROOT = path.join(RS_ROOT, 'www');
export const STATE = path.join(RS_ROOT, 'state');
export const STORE_URL = `http://127.0.0.1:${RS_PORT}`;
export const SERVICE_URL = `http://127.0.0.1:${SERVICE_PORT}`;
/** The service's own folder (SQLite database, key file, log). */
export const SERVICE_DIR = path.join(RS_ROOT, 'service');
/** What globalSetup hands to the tests: the API token of the account the store connects to. */
export const SUITE_FILE = path.join(RS_ROOT, 'suite.json');
export const PLUGIN_ZIP = path.join(ROOT, 'dist', 'recurring-payments-bridge.zip');
export { CHROMIUM } from '../../support/chromium';

/** The real store is on this machine (CI has it; elsewhere the suite is skipped, saying so). */
export const hasRealStore = () => existsSync(path.join(REALSTORE, 'setup.sh'));

/** The environment realstore's scripts read. */
export function storeEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, RS_ROOT, RS_PORT: String(RS_PORT), RS_DB, RS_STATE: STATE, ...extra };
}

/** The built service's environment: sandbox provider, no scheduler (jobs run through the CLI). */
export function serviceEnv(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    PORT: String(SERVICE_PORT),
    HOST: '127.0.0.1',
    PUBLIC_URL: SERVICE_URL,
    DATA_DIR: SERVICE_DIR,
    DATABASE_URL: `sqlite:${path.join(SERVICE_DIR, 'service.sqlite')}`,
    SANDBOX: 'on',
    CRON: 'off',
    LOG_LEVEL: 'warn',
    APP_TIMEZONE: 'Europe/Amsterdam',
    // The suite and the store's plugin share the account's one token, and a quick run makes more than the
    // default 60 calls a minute: a 429 would then fail a scenario that is not about rate limits (those have
    // their own tests, test/api/rate-limit-instances.test.ts).
    RATE_LIMIT_PER_MINUTE: '6000',
    // The Mollie fake a scenario serves over HTTPS (fakes/mollie/https.ts) has a self-signed certificate, and the Mollie
    // client trusts only its own CA bundle (NODE_EXTRA_CA_CERTS does not reach it): as the fault tests' services, this
    // test-only service does not check certificates. It talks to nothing else over TLS.
    NODE_TLS_REJECT_UNAUTHORIZED: '0',
  };
}

export interface SuiteState {
  token: string;
}
