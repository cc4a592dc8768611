import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { validate } from 'node-cron';
import { z } from 'zod';

/** A time zone the runtime knows; checked once at start so rendering never throws later. */
const timeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'must be an IANA time zone such as Europe/Amsterdam');

/**
 * Which proxies in front of us express may believe about the client's address (its `trust proxy`):
 * `off` (the default: the connection's address), a hop count (`1`: the one proxy in front), or a
 * comma-separated list of addresses, subnets (`10.0.0.0/8`) and express's names (`loopback`,
 * `linklocal`, `uniquelocal`). Never `true`: trusting every hop lets any client name its own address.
 */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyAddress = (entry: string): boolean => {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
};
const trustProxy = z
  .string()
  .trim()
  .transform((value, check): number | string[] | false => {
    if (value === 'off' || value === 'false') return false;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 32) return hops === 0 ? false : hops;
    } else {
      const entries = value.split(',').map((entry) => entry.trim());
      if (entries.every(isProxyAddress)) return entries;
    }
    check.addIssue({
      code: 'custom',
      message: 'must be off, a hop count such as 1, or addresses and subnets such as 10.0.0.1,192.168.0.0/16 (or loopback)',
    });
    return z.NEVER;
  });

const appKey = z.string().regex(/^base64:[A-Za-z0-9+/]{43}=$/, 'must be "base64:" followed by 32 random bytes in base64 (see README)');

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Absent: every interface, as Node listens by default.
  HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:-]+$/, 'must be an address to listen on, such as 127.0.0.1, 0.0.0.0 or ::')
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:.+|mysql:\/\/.+)$/, 'must be sqlite:<path> or mysql://user:pass@host:3306/db')
    .default('sqlite:./data/recurring.sqlite'),
  DATA_DIR: z.string().min(1).default('./data'),
  APP_KEY: appKey.optional(),
  APP_TIMEZONE: timeZone.default('Europe/Amsterdam'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  CRON: z.enum(['on', 'off']).default('on'),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'http', 'debug']).default('info'),
  // Absent: off, the connection's address is the client's. Behind a reverse proxy: its hop count or addresses (see trustProxy).
  TRUST_PROXY: trustProxy.default(false),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100000).default(60),
  // Set: GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`. Absent: /metrics is open (keep it off the internet).
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  // Absent: each instance counts its own requests in memory. Set: instances share one limit in Redis. May hold a password: never logged.
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be redis://[:password@]host:6379[/db] or rediss://…' }).optional(),
  MOLLIE_API_KEY: z
    .string()
    .regex(/^(test|live)_\w+$/, 'must start with test_ or live_')
    .optional(),
  MOLLIE_API_URL: z.url({ protocol: /^https$/ }).optional(),
  // How long one call to Mollie may take before its outcome counts as unknown (resumed later with the same key).
  MOLLIE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  // Moneybird's API (bookkeeping, `cli accounts set-bookkeeping moneybird`); another address for a test double.
  MONEYBIRD_API_URL: z.url({ protocol: /^https?$/ }).default('https://moneybird.com/api/v2'),
  // How long one call to Moneybird may take before its outcome counts as unknown (looked up by our reference later).
  MONEYBIRD_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  // Absent: on outside production, off in production (see Config.sandboxEnabled).
  SANDBOX: z.enum(['on', 'off']).optional(),
  // Absent: allowed outside production, refused in production (see Config.outboundAllowPrivate).
  OUTBOUND_ALLOW_PRIVATE: z.enum(['on', 'off']).optional(),
  IDEMPOTENCY_LOCK_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  // How long a SIGTERM may take: requests in flight, running jobs, background work. Then it exits anyway.
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  // Absent: mails are kept in the outgoing_mails table only (see docs/operations.md, "E-mail"). Holds a password: never logged.
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be smtp://user:pass@host:587 or smtps://user:pass@host:465' }).optional(),
  MAIL_FROM: z
    .string()
    .regex(/^(?:[^<>@\r\n]+ <[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/, 'must be an address or "Name <address>"')
    .default('Recurring Payments <no-reply@localhost>'),
  // When the billing run starts each day, in APP_TIMEZONE (node-cron syntax).
  BILLING_CRON: z
    .string()
    .refine((expression) => validate(expression), 'must be a cron expression such as "0 6 * * *"')
    .default('0 6 * * *'),
  // Charges made at once by one instance (each waits for the provider's answer).
  BILLING_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
});

export type Environment = z.infer<typeof environmentSchema>;

export interface Config extends Omit<Environment, 'APP_KEY' | 'PUBLIC_URL' | 'SANDBOX' | 'OUTBOUND_ALLOW_PRIVATE'> {
  /** 32-byte key used to encrypt secrets at rest. */
  appKey: Buffer;
  /** Where the outside world reaches us, without a trailing slash. */
  publicUrl: string;
  /**
   * Whether PUBLIC_URL was set, not the development default: a command that hands the address to
   * the outside (`cli shops connect` registers webhooks at it) refuses the default.
   */
  publicUrlSet: boolean;
  /**
   * Whether the in-process sandbox provider and its /sandbox pages exist. Never by default in
   * production: there a buyer could press "paid" on a real shop's payment.
   */
  sandboxEnabled: boolean;
  /**
   * Whether outbound deliveries (events to a client's webhook_url) may go to loopback, private,
   * link-local and metadata addresses. Refused by default in production (SSRF).
   */
  outboundAllowPrivate: boolean;
}

export class ConfigError extends Error {}

/** Parses the environment; throws ConfigError with one line naming the first bad variable. */
export function parseEnvironment(env: NodeJS.ProcessEnv): Environment {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = environmentSchema.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(`Invalid environment variable ${name}: ${issue?.message ?? 'invalid value'}`);
  }
  // A copy of production (staging, a laptop) must not charge real customers with an inherited live key.
  if (result.data.MOLLIE_API_KEY?.startsWith('live_') && result.data.NODE_ENV !== 'production') {
    throw new ConfigError(
      `Invalid environment variable MOLLIE_API_KEY: a live_ key is refused unless NODE_ENV=production (NODE_ENV is ` +
        `${result.data.NODE_ENV})`,
    );
  }
  return result.data;
}

export interface LoadedConfig {
  config: Config;
  /** Set when APP_KEY was absent and a key file was written on this start. */
  generatedKeyFile?: string;
}

/** Where the key generated outside production is kept (mode 0600). */
const keyFileIn = (parsed: Environment) => path.resolve(parsed.DATA_DIR, 'app.key');

/**
 * Production runs only on what the operator set, never on a development convenience: a key file
 * beside the data it protects (whoever copies the data directory, a backup or a stolen disk, has the
 * key too), or addresses on localhost (a customer's payment link would lead nowhere, Mollie's
 * webhook calls would never arrive).
 */
function refuseDevelopmentDefaultsInProduction(parsed: Environment): void {
  if (parsed.NODE_ENV !== 'production') return;
  if (!parsed.APP_KEY) {
    const keyFile = keyFileIn(parsed);
    const fix = existsSync(keyFile) ? `move the key from ${keyFile} into APP_KEY` : 'generate one as README "Environment" shows';
    throw new ConfigError(
      `Missing environment variable APP_KEY: required when NODE_ENV=production (a key file is for development only); ` +
        `${fix} and keep it in your secret store`,
    );
  }
  if (!parsed.PUBLIC_URL) {
    throw new ConfigError(
      'Missing environment variable PUBLIC_URL: required when NODE_ENV=production; set the https:// address customers and Mollie ' +
        'reach this service at',
    );
  }
}

/**
 * Reads the environment. Without APP_KEY, outside production, a key is kept in DATA_DIR/app.key
 * (mode 0600), generated on the first start, so encrypted secrets survive restarts.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const parsed = parseEnvironment(env);
  refuseDevelopmentDefaultsInProduction(parsed);
  let keyText = parsed.APP_KEY;
  let generatedKeyFile: string | undefined;
  if (!keyText) {
    const keyFile = keyFileIn(parsed);
    if (existsSync(keyFile)) {
      keyText = readFileSync(keyFile, 'utf8').trim();
      const check = appKey.safeParse(keyText);
      if (!check.success) throw new ConfigError(`Invalid key file ${keyFile}: ${check.error.issues[0]?.message}`);
    } else {
      mkdirSync(path.dirname(keyFile), { recursive: true });
      keyText = `base64:${randomBytes(32).toString('base64')}`;
      writeFileSync(keyFile, `${keyText}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(keyFile, 0o600);
      generatedKeyFile = keyFile;
    }
  }
  const { APP_KEY: _key, PUBLIC_URL, SANDBOX, OUTBOUND_ALLOW_PRIVATE, ...rest } = parsed;
  const publicUrl = (PUBLIC_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, '');
  const production = parsed.NODE_ENV === 'production';
  return {
    config: {
      ...rest,
      appKey: Buffer.from(keyText.slice('base64:'.length), 'base64'),
      publicUrl,
      publicUrlSet: PUBLIC_URL !== undefined,
      sandboxEnabled: SANDBOX ? SANDBOX === 'on' : !production,
      outboundAllowPrivate: OUTBOUND_ALLOW_PRIVATE ? OUTBOUND_ALLOW_PRIVATE === 'on' : !production,
    },
    generatedKeyFile,
  };
}
