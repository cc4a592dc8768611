import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, parseEnvironment } from '../../src/config';

const APP_KEY = 'base64:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=';

function configErrorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('parseEnvironment', () => {
  it('When nothing is set, then the documented defaults apply', () => {
    expect(parseEnvironment({})).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3000,
      DATABASE_URL: 'sqlite:./data/recurring.sqlite',
      DATA_DIR: './data',
      APP_TIMEZONE: 'Europe/Amsterdam',
      CRON: 'on',
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: 60,
      SHUTDOWN_TIMEOUT_MS: 10_000,
    });
    expect(parseEnvironment({}).HOST).toBeUndefined(); // every interface
  });

  it('When a variable is set to an empty string, then it counts as absent', () => {
    expect(parseEnvironment({ PORT: '', LOG_LEVEL: '' })).toMatchObject({ PORT: 3000, LOG_LEVEL: 'info' });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['DATABASE_URL', 'postgres://user@host/db'],
    ['DATABASE_URL', 'recurring.sqlite'],
    ['APP_TIMEZONE', 'Mars/Olympus_Mons'],
    ['LOG_LEVEL', 'verbose'],
    ['APP_KEY', 'not-a-key'],
    ['PUBLIC_URL', 'ftp://files.example.nl'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['CRON', 'yes'],
    ['SANDBOX', 'yes'],
    ['OUTBOUND_ALLOW_PRIVATE', '1'],
    ['IDEMPOTENCY_LOCK_SECONDS', '0'],
    ['SHUTDOWN_TIMEOUT_MS', '10s'],
    ['SHUTDOWN_TIMEOUT_MS', '50'],
    ['HOST', 'http://127.0.0.1'],
    ['HOST', '127.0.0.1 ::1'],
  ])('When %s is %p, then a ConfigError of one line names the variable', (name, value) => {
    const error = configErrorOf(() => parseEnvironment({ [name]: value }));
    expect(error.message).toMatch(new RegExp(`^Invalid environment variable ${name}: \\S`));
    expect(error.message).not.toContain('\n');
  });

  it('When values are valid, then they are converted to their types', () => {
    expect(
      parseEnvironment({ PORT: '8080', DATABASE_URL: 'mysql://u:p@db:3306/rps', APP_TIMEZONE: 'UTC', LOG_LEVEL: 'debug' }),
    ).toMatchObject({
      PORT: 8080,
      DATABASE_URL: 'mysql://u:p@db:3306/rps',
      APP_TIMEZONE: 'UTC',
      LOG_LEVEL: 'debug',
    });
  });
});

describe('parseEnvironment and a live Mollie key', () => {
  const LIVE_KEY = `live_${'L'.repeat(30)}`;

  it.each(['development', 'test', undefined])(
    'When MOLLIE_API_KEY is a live_ key and NODE_ENV is %p, then start is refused with a ConfigError',
    (nodeEnv) => {
      const error = configErrorOf(() => parseEnvironment({ MOLLIE_API_KEY: LIVE_KEY, ...(nodeEnv ? { NODE_ENV: nodeEnv } : {}) }));
      expect(error.message).toMatch(/^Invalid environment variable MOLLIE_API_KEY: a live_ key is refused unless NODE_ENV=production/);
      expect(error.message).not.toContain(LIVE_KEY);
    },
  );

  it('When MOLLIE_API_KEY is a live_ key and NODE_ENV is production, then it is accepted', () => {
    expect(parseEnvironment({ MOLLIE_API_KEY: LIVE_KEY, NODE_ENV: 'production' }).MOLLIE_API_KEY).toBe(LIVE_KEY);
  });

  it('When MOLLIE_API_KEY is a test_ key outside production, then it is accepted', () => {
    expect(parseEnvironment({ MOLLIE_API_KEY: `test_${'T'.repeat(30)}`, NODE_ENV: 'development' }).MOLLIE_API_KEY).toBe(
      `test_${'T'.repeat(30)}`,
    );
  });
});

describe('loadConfig', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'rps-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('When APP_KEY is absent, then a key is written to DATA_DIR/app.key with mode 0600 and reused on the next load', () => {
    const keyFile = path.join(dataDir, 'app.key');
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.generatedKeyFile).toBe(keyFile);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile, 'utf8')).toMatch(/^base64:[A-Za-z0-9+/]{43}=\n$/);
    expect(first.config.appKey).toHaveLength(32);

    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.generatedKeyFile).toBeUndefined();
    expect(second.config.appKey.equals(first.config.appKey)).toBe(true);
  });

  it('When the key file holds something else than a key, then it fails with a ConfigError naming the file', () => {
    const keyFile = path.join(dataDir, 'app.key');
    writeFileSync(keyFile, 'garbage\n', { mode: 0o600 });
    const error = configErrorOf(() => loadConfig({ DATA_DIR: dataDir }));
    expect(error.message).toContain(keyFile);
    expect(error.message).not.toContain('\n');
  });

  it('When APP_KEY is set, then it is used and no key file is written', () => {
    const loaded = loadConfig({ DATA_DIR: dataDir, APP_KEY });
    expect(loaded.generatedKeyFile).toBeUndefined();
    expect(loaded.config.appKey.toString('utf8')).toBe('0123456789abcdef0123456789abcdef');
    expect(() => statSync(path.join(dataDir, 'app.key'))).toThrow();
  });

  it.each([
    ['https://pay.example.nl/', 'https://pay.example.nl'],
    ['https://example.nl/payments//', 'https://example.nl/payments'],
    ['http://localhost:8080', 'http://localhost:8080'],
  ])('When PUBLIC_URL is %p, then publicUrl is %p without a trailing slash', (publicUrl, expected) => {
    expect(loadConfig({ DATA_DIR: dataDir, APP_KEY, PUBLIC_URL: publicUrl }).config.publicUrl).toBe(expected);
  });

  it('When PUBLIC_URL is absent, then publicUrl is localhost on PORT, and said not to be set', () => {
    expect(loadConfig({ DATA_DIR: dataDir, APP_KEY, PORT: '4000' }).config).toMatchObject({
      publicUrl: 'http://localhost:4000',
      publicUrlSet: false,
    });
    expect(loadConfig({ DATA_DIR: dataDir, APP_KEY, PUBLIC_URL: 'https://pay.example.nl' }).config.publicUrlSet).toBe(true);
  });

  it('When the config is loaded, then the clear APP_KEY text is not kept on it', () => {
    const { config } = loadConfig({ DATA_DIR: dataDir, APP_KEY });
    expect(JSON.stringify(config)).not.toContain(APP_KEY);
  });
});

describe('loadConfig in production', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'rps-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://pay.example.nl' };

  it('When APP_KEY is unset, then it fails with one line naming APP_KEY and no key file is generated', () => {
    const error = configErrorOf(() => loadConfig({ ...production, DATA_DIR: dataDir }));
    expect(error.message).toMatch(
      /^Missing environment variable APP_KEY: required when NODE_ENV=production \(a key file is for development only\); generate one/,
    );
    expect(error.message).not.toContain('\n');
    expect(() => statSync(path.join(dataDir, 'app.key'))).toThrow();
  });

  it(
    "When APP_KEY is unset and a key file from development exists, then the line says to move that file's key into APP_KEY, without " +
      'quoting the key',
    () => {
      const keyFile = path.join(dataDir, 'app.key');
      writeFileSync(keyFile, `${APP_KEY}\n`, { mode: 0o600 });
      const error = configErrorOf(() => loadConfig({ ...production, DATA_DIR: dataDir }));
      expect(error.message).toContain(`move the key from ${keyFile} into APP_KEY`);
      expect(error.message).not.toContain(APP_KEY.slice('base64:'.length));
    },
  );

  it('When PUBLIC_URL is unset, then it fails with one line naming PUBLIC_URL', () => {
    const error = configErrorOf(() => loadConfig({ NODE_ENV: 'production', APP_KEY, DATA_DIR: dataDir }));
    expect(error.message).toMatch(/^Missing environment variable PUBLIC_URL: required when NODE_ENV=production/);
    expect(error.message).not.toContain('\n');
  });

  it('When APP_KEY and PUBLIC_URL are set, then it loads', () => {
    expect(loadConfig({ ...production, APP_KEY, DATA_DIR: dataDir }).config.publicUrl).toBe('https://pay.example.nl');
  });
});

describe('the production perimeter', () => {
  const load = (env: Record<string, string>) => loadConfig({ APP_KEY, PUBLIC_URL: 'https://pay.example.nl', ...env }).config;

  it.each([
    ['development', {}, true, true],
    ['test', {}, true, true],
    ['production', {}, false, false],
    ['production', { SANDBOX: 'on', OUTBOUND_ALLOW_PRIVATE: 'on' }, true, true],
    ['development', { SANDBOX: 'off', OUTBOUND_ALLOW_PRIVATE: 'off' }, false, false],
  ])(
    'When NODE_ENV is %s with %p, then the sandbox is %p and private outbound addresses are allowed: %p',
    (nodeEnv, env, sandbox, allowPrivate) => {
      const config = load({ NODE_ENV: nodeEnv, ...env });
      expect({ sandbox: config.sandboxEnabled, allowPrivate: config.outboundAllowPrivate }).toEqual({ sandbox, allowPrivate });
    },
  );

  it('When IDEMPOTENCY_LOCK_SECONDS is absent, then a dead request holds its key for 60 seconds', () => {
    expect(load({}).IDEMPOTENCY_LOCK_SECONDS).toBe(60);
  });
});
