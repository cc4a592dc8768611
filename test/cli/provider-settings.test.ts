import { openMollieKey, sealMollieKey } from '../../src/providers/mollie/settings';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';
import { cli, cliWithStdin } from './runInMemory';

const TEST_KEY = 'test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM';
const LIVE_KEY = 'live_pQr5StUvWxYz0123456789AbCdEfGh';

describe.each(TEST_DATABASES)('cli accounts set-provider and show on %s', (kind) => {
  const t = useTestApp(kind);
  let counter = 0;

  async function newNamedAccount(): Promise<{ name: string; accountId: string }> {
    counter += 1;
    const name = `Provider Shop ${counter}`;
    const { accountId } = await t.newAccount(name);
    return { name, accountId };
  }

  const rowOf = (accountId: string) => t.ctx.db('accounts').where({ id: accountId }).first();

  it('When a test key is set, then only ciphertext is stored and the command prints the key masked', async () => {
    const { name, accountId } = await newNamedAccount();
    const result = await cli(
      t.ctx,
      'accounts',
      'set-provider',
      '--account',
      name,
      '--mollie-api-key',
      TEST_KEY,
      '--profile-id',
      'pfl_QkEhN94Ba',
    );
    expect(result).toEqual({ code: 0, out: [`Account "${name}" uses Mollie with key test_…lXsM (profile pfl_QkEhN94Ba)`], err: [] });
    const row = await rowOf(accountId);
    expect(JSON.stringify(row)).not.toContain(TEST_KEY);
    expect(JSON.stringify(row)).not.toContain(TEST_KEY.slice(5));
    expect(row.provider_credentials_sealed).toMatch(/^v1:/);
    expect(row.provider_profile_id).toBe('pfl_QkEhN94Ba');
    expect(openMollieKey(t.ctx.config.appKey, row.provider_credentials_sealed)).toEqual({ key: TEST_KEY, allowLive: false });
    expect(t.logs.lines.join('\n')).not.toContain(TEST_KEY);
  });

  it('When a live key is given outside production without --allow-live, then it is refused and nothing is stored', async () => {
    const { name, accountId } = await newNamedAccount();
    const result = await cli(t.ctx, 'accounts', 'set-provider', '--account', name, '--mollie-api-key', LIVE_KEY);
    expect(result.code).toBe(1);
    expect(result.out).toEqual([]);
    expect(result.err).toEqual([
      'error: Refused a live_ key: NODE_ENV is "test", not "production", and a copy outside production must not charge real ' +
        'customers. Pass --allow-live if you really mean it',
    ]);
    expect((await rowOf(accountId)).provider_credentials_sealed).toBeNull();
  });

  it('When a live key is given with --allow-live, then it is stored with that decision', async () => {
    const { name, accountId } = await newNamedAccount();
    const result = await cli(t.ctx, 'accounts', 'set-provider', '--account', name, '--mollie-api-key', LIVE_KEY, '--allow-live');
    expect(result).toEqual({ code: 0, out: [`Account "${name}" uses Mollie with key live_…EfGh`], err: [] });
    const row = await rowOf(accountId);
    expect(JSON.stringify(row)).not.toContain(LIVE_KEY);
    expect(openMollieKey(t.ctx.config.appKey, row.provider_credentials_sealed)).toEqual({ key: LIVE_KEY, allowLive: true });
  });

  it('When show runs, then it prints ids, the masked key, the webhook URL and the same webhook secret every time', async () => {
    const { name, accountId } = await newNamedAccount();
    await cli(t.ctx, 'accounts', 'set-provider', '--account', name, '--mollie-api-key', TEST_KEY);
    const row = await rowOf(accountId);

    const first = await cli(t.ctx, 'accounts', 'show', '--account', name);
    expect(first.code).toBe(0);
    expect(first.err).toEqual([]);
    const secretLine = first.out.find((line) => line.startsWith('webhook secret:'));
    const secret = secretLine?.split(/\s+/).pop() ?? '';
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    expect(first.out).toEqual([
      `id:                   ${accountId}`,
      `name:                 ${name}`,
      `public ref:           ${row.public_ref}`,
      'bookkeeping system:   none',
      `display name:         none (shows "${name}")`,
      'contact e-mail:       none',
      'creditor id:          none',
      'portal allows:        pause, skip, cancel, change-method',
      'portal max pause:     92 days',
      'subscription mails:   service',
      'provider:             mollie (account key test_…lXsM)',
      'profile id:           none',
      `webhook secret:       ${secret}`,
      `provider webhook url: ${TEST_PUBLIC_URL}/webhooks/mollie?account=${row.public_ref}`,
    ]);
    expect(first.out.join('\n')).not.toContain(TEST_KEY);

    const second = await cli(t.ctx, 'accounts', 'show', '--account', name);
    expect(second.out).toEqual(first.out);
    const stored = await rowOf(accountId);
    expect(stored.webhook_secret_encrypted).toMatch(/^v1:/);
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it('When the account has no key, then show names the sandbox; a live key allowed outside production is said so', async () => {
    const { name } = await newNamedAccount();
    expect((await cli(t.ctx, 'accounts', 'show', '--account', name)).out).toContain(
      'provider:             sandbox (no Mollie key on the account nor in MOLLIE_API_KEY)',
    );
    await cli(t.ctx, 'accounts', 'set-provider', '--account', name, '--mollie-api-key', LIVE_KEY, '--allow-live');
    expect((await cli(t.ctx, 'accounts', 'show', '--account', name)).out).toContain(
      'provider:             mollie (account key live_…EfGh; live allowed outside production)',
    );
  });

  it('When --none is given, then the settings are cleared and show names the sandbox again', async () => {
    const { name, accountId } = await newNamedAccount();
    await cli(
      t.ctx,
      'accounts',
      'set-provider',
      '--account',
      name,
      '--mollie-api-key',
      TEST_KEY,
      '--profile-id',
      'pfl_QkEhN94Ba',
      '--mollie-api-url',
      'https://mollie-proxy.example.nl/v2/',
    );
    expect(await rowOf(accountId)).toMatchObject({ provider_options: JSON.stringify({ apiUrl: 'https://mollie-proxy.example.nl/v2/' }) });

    const cleared = await cli(t.ctx, 'accounts', 'set-provider', '--account', name, '--none');
    expect(cleared).toEqual({
      code: 0,
      out: [`Account "${name}" has no Mollie key of its own; it uses MOLLIE_API_KEY if set, else the sandbox`],
      err: [],
    });
    expect(await rowOf(accountId)).toMatchObject({
      provider: null,
      provider_credentials_sealed: null,
      provider_profile_id: null,
      provider_options: null,
    });
    expect((await cli(t.ctx, 'accounts', 'show', '--account', name)).out).toContain(
      'provider:             sandbox (no Mollie key on the account nor in MOLLIE_API_KEY)',
    );
  });

  describe('the key from standard input (--mollie-api-key -)', () => {
    it.each([
      ['the key and a line end', `${TEST_KEY}\n`],
      ['the key without a line end', TEST_KEY],
      ['the key with spaces and a Windows line end, then more lines', `  ${TEST_KEY}  \r\nsomething else\n`],
    ])('When stdin holds %s, then the key is stored encrypted and never printed', async (_case, stdin) => {
      const { name, accountId } = await newNamedAccount();
      const result = await cliWithStdin(t.ctx, stdin, 'accounts', 'set-provider', '--account', name, '--mollie-api-key', '-');
      expect(result).toEqual({ code: 0, out: [`Account "${name}" uses Mollie with key test_…lXsM`], err: [] });

      const row = await rowOf(accountId);
      expect(row.provider_credentials_sealed).toMatch(/^v1:/);
      expect(JSON.stringify(row)).not.toContain(TEST_KEY.slice(5));
      expect(openMollieKey(t.ctx.config.appKey, row.provider_credentials_sealed)).toEqual({ key: TEST_KEY, allowLive: false });

      const shown = await cli(t.ctx, 'accounts', 'show', '--account', name);
      expect(shown.out).toContain('provider:             mollie (account key test_…lXsM)');
      const printed = [...result.out, ...result.err, ...shown.out, ...shown.err, ...t.logs.lines].join('\n');
      expect(printed).not.toContain(TEST_KEY.slice(5));
    });

    it.each([
      ['empty', ''],
      ['an empty first line', '\ntest_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM\n'],
      ['only spaces', '   \n'],
    ])('When stdin is %s, then it prints one error line, exits with 1 and stores nothing', async (_case, stdin) => {
      const { name, accountId } = await newNamedAccount();
      const result = await cliWithStdin(t.ctx, stdin, 'accounts', 'set-provider', '--account', name, '--mollie-api-key', '-');
      expect(result).toEqual({
        code: 1,
        out: [],
        err: ['error: No Mollie API key on standard input: --mollie-api-key - reads the key from the first line of standard input'],
      });
      expect((await rowOf(accountId)).provider_credentials_sealed).toBeNull();
    });

    it('When the help is shown, then it says that - reads the key from standard input', async () => {
      const help = await cli(t.ctx, 'accounts', 'set-provider', '--help');
      expect(help.out.join(' ').replace(/\s+/g, ' ')).toContain('- reads it from standard input');
    });
  });

  describe('bad arguments', () => {
    let name: string;
    let accountId: string;

    beforeAll(async () => {
      ({ name, accountId } = await newNamedAccount());
    });

    it.each([
      [[], 'error: Pass either --mollie-api-key <key> or --none'],
      [['--mollie-api-key', TEST_KEY, '--none'], 'error: Pass either --mollie-api-key <key> or --none'],
      [['--none', '--profile-id', 'pfl_QkEhN94Ba'], 'error: --none takes no other provider option'],
      [
        ['--mollie-api-key', 'test_short'],
        'error: A Mollie API key is test_ or live_ followed by at least 30 letters and digits (or access_ for an organization access ' +
          'token)',
      ],
      [
        ['--mollie-api-key', 'sk_test_1234567890123456789012345678901'],
        'error: A Mollie API key is test_ or live_ followed by at least 30 letters and digits (or access_ for an organization access ' +
          'token)',
      ],
      [['--mollie-api-key', TEST_KEY, '--profile-id', 'profile-1'], 'error: A Mollie profile id is pfl_ followed by letters and digits'],
      [
        ['--mollie-api-key', TEST_KEY, '--mollie-api-url', 'http://mollie.example.nl/v2/'],
        'error: The Mollie API URL must start with https:// (the Mollie client refuses anything else)',
      ],
      [
        ['--mollie-api-key', TEST_KEY, '--mollie-api-url', 'not a url'],
        'error: "not a url" is not a URL; the Mollie API URL looks like https://api.mollie.com/v2/',
      ],
      [
        ['--mollie-api-key', `access_${'A'.repeat(40)}`],
        'error: An organization access token (access_…) is not tied to one website profile: pass --profile-id pfl_…',
      ],
    ])('When set-provider gets %p, then it prints one error line, exits with 1 and stores nothing', async (args, message) => {
      const result = await cli(t.ctx, 'accounts', 'set-provider', '--account', name, ...args);
      expect(result).toEqual({ code: 1, out: [], err: [message] });
      expect((await rowOf(accountId)).provider_credentials_sealed).toBeNull();
    });

    it('When the account does not exist, then set-provider and show say so', async () => {
      expect(await cli(t.ctx, 'accounts', 'set-provider', '--account', 'Nobody', '--mollie-api-key', TEST_KEY)).toEqual({
        code: 1,
        out: [],
        err: ['error: No account named "Nobody"'],
      });
      expect(await cli(t.ctx, 'accounts', 'show', '--account', 'Nobody')).toEqual({
        code: 1,
        out: [],
        err: ['error: No account named "Nobody"'],
      });
    });
  });
});

describe.each(TEST_DATABASES)('cli accounts show with MOLLIE_API_KEY on %s', (kind) => {
  const ENV_KEY = 'test_EnvironmentKey00000000000000wXyZ';
  const t = useTestApp(kind, { env: { MOLLIE_API_KEY: ENV_KEY } });

  it('When the account has no key of its own, then show names the environment key, masked', async () => {
    await t.newAccount('Env Shop');
    const result = await cli(t.ctx, 'accounts', 'show', '--account', 'Env Shop');
    expect(result.out).toContain('provider:             mollie (environment MOLLIE_API_KEY test_…wXyZ)');
    expect(result.out.join('\n')).not.toContain(ENV_KEY);
  });

  it('When the account holds a live key stored without --allow-live (a copied database), then show says it is refused', async () => {
    const { accountId } = await t.newAccount('Copied Shop');
    await t.ctx
      .db('accounts')
      .where({ id: accountId })
      .update({ provider: 'mollie', provider_credentials_sealed: sealMollieKey(t.ctx.config.appKey, { key: LIVE_KEY, allowLive: false }) });
    expect((await cli(t.ctx, 'accounts', 'show', '--account', 'Copied Shop')).out).toContain(
      'provider:             mollie (account key live_…EfGh; REFUSED: a live key and NODE_ENV is test)',
    );
  });
});
