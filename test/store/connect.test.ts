import { decryptSecret } from '../../src/crypto/secrets';
import { wooCommerce } from '../../src/integrations/woocommerce/platform';
import { wordPressRefusal } from '../../src/integrations/woocommerce/webhookPorts';
import { unreachableReason } from '../../src/modules/store/reachability';
import { inProcessWebhooks } from '../support/connectedStore';
import { cli, cliWithStdin } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';
import { WooSimulator } from '../../fakes/woocommerce/simulator';

describe.each(TEST_DATABASES)('connecting a WooCommerce store on %s', (kind) => {
  const t = useTestApp(kind);
  let store: WooSimulator;
  let token: string;
  let accountId: string;
  let publicRef: string;
  const accountName = 'Store owner';

  beforeAll(async () => {
    ({ token, accountId } = await t.newAccount(accountName));
    publicRef = (await t.ctx.db('accounts').where({ id: accountId }).first()).public_ref;
  });
  beforeEach(async () => {
    store = new WooSimulator();
    store.transport = inProcessWebhooks(() => t.app);
    await store.start();
  });
  afterEach(() => store.stop());

  const connect = (overrides: Record<string, string> = {}, as = token) =>
    t.as(as).post('/api/v2/shop', { url: store.url, consumer_key: store.consumerKey, consumer_secret: store.consumerSecret, ...overrides });

  it(
    'When the keys are right, then the store is connected, the secret kept encrypted, and six webhooks registered with a secret of ' +
      'ours',
    async () => {
      const res = await connect();
      expect(res.status).toBe(200);
      const deliveryUrl = `${TEST_PUBLIC_URL}/webhooks/woocommerce/${publicRef}`;
      expect(res.body).toEqual({
        platform: 'woocommerce',
        url: store.url,
        status: 'connected',
        consumer_key: `ck_…${store.consumerKey.slice(-4)}`,
        webhooks: {
          state: 'registered',
          delivery_url: deliveryUrl,
          error: null,
          reason: null,
          // The store pinged each new webhook and the ping found the shop (saved before registering).
          last_ping_at: expect.any(String),
          in_store: expect.arrayContaining([{ topic: 'order.created', id: expect.any(Number), status: 'active' }]),
          last_checked_at: expect.any(String),
        },
        connected_at: expect.any(String),
        portal: { allowed_actions: ['pause', 'skip', 'cancel', 'change-method'], max_pause_days: 92 },
        // Only in this answer: the plugin that connects the store verifies the service's events with it.
        event_signing_secret: expect.stringMatching(/^whsec_/),
      });
      const hooks = [...store.webhooks.values()];
      expect(hooks.map((hook) => hook.topic).sort()).toEqual([
        'order.created',
        'order.deleted',
        'order.updated',
        'product.created',
        'product.deleted',
        'product.updated',
      ]);
      expect(hooks.every((hook) => hook.delivery_url === deliveryUrl)).toBe(true);
      expect(hooks.every((hook) => hook.pending_delivery === false)).toBe(true);
      expect(res.body.webhooks.in_store).toHaveLength(6);
      const row = await t.ctx.db('shops').where({ account_id: accountId }).first();
      expect(JSON.stringify(row)).not.toContain(store.consumerSecret);
      expect(decryptSecret(t.ctx.config.appKey, row.consumer_secret_encrypted)).toBe(store.consumerSecret);
      const ours = decryptSecret(t.ctx.config.appKey, row.webhook_secret_encrypted);
      expect(ours).toMatch(/^wcsec_/);
      expect(hooks.every((hook) => hook.secret === ours)).toBe(true);
      const { event_signing_secret: _shownOnce, ...connection } = res.body;
      expect((await t.as(token).get('/api/v2/shop')).body).toEqual(connection);
    },
  );

  it(
    'When the account limits its portal (cli accounts set-portal), then the connection shows only the allowed actions and the ' +
      'shorter pause, so the plugin offers no more than that',
    async () => {
      const owner = await t.newAccount('Limited portal shop');
      expect((await connect({}, owner.token)).status).toBe(200);
      expect(
        (await cli(t.ctx, 'accounts', 'set-portal', '--account', 'Limited portal shop', '--allow', 'cancel,skip', '--max-pause-days', '30'))
          .code,
      ).toBe(0);
      expect((await t.as(owner.token).get('/api/v2/shop')).body.portal).toEqual({
        allowed_actions: ['skip', 'cancel'],
        max_pause_days: 30,
      });
      await cli(t.ctx, 'accounts', 'set-portal', '--account', 'Limited portal shop', '--allow', 'none');
      expect((await t.as(owner.token).get('/api/v2/shop')).body.portal.allowed_actions).toEqual([]);
    },
  );

  it("When the store's pings do not reach PUBLIC_URL, then not_reachable says why and no webhooks are left in the store", async () => {
    store.transport = async () => 0;
    const res = await connect();
    expect(res.status).toBe(200);
    expect(res.body.webhooks).toMatchObject({
      state: 'not_reachable',
      error: null,
      reason: expect.stringContaining("the store's ping did not reach http://rps.test"),
      last_ping_at: null,
      in_store: [],
    });
    expect(store.webhooks.size).toBe(0);
    // A ping answered with anything but 200 counts as not reached, as WooCommerce counts it.
    store.transport = async () => 404;
    expect((await connect()).body.webhooks.state).toBe('not_reachable');
  });

  it('When connected again, then the earlier webhooks are removed and new ones registered', async () => {
    await connect();
    await connect();
    expect(store.webhooks.size).toBe(6);
    const row = await t.ctx.db('shops').where({ account_id: accountId });
    expect(row).toHaveLength(1);
  });

  it.each<[string, (s: WooSimulator) => Record<string, string>, string, string]>([
    ['a wrong consumer secret', () => ({ consumer_secret: 'cs_wrong' }), 'consumer_secret', 'The store refused the consumer key or secret'],
    ['a wrong consumer key', () => ({ consumer_key: 'ck_wrong' }), 'consumer_secret', 'The store refused the consumer key or secret'],
    ['plain permalinks', (s) => ((s.prettyPermalinks = false), {}), 'url', 'enable pretty permalinks'],
    ['WordPress without WooCommerce', (s) => ((s.wooCommerceActive = false), {}), 'url', 'is WooCommerce active?'],
    ['an address where nothing answers', () => ({ url: 'http://127.0.0.1:9' }), 'url', 'could not be reached'],
  ])('When the store has %s, then 422 says what is wrong and nothing is stored', async (_, setup, field, message) => {
    const other = await t.newAccount();
    const res = await connect(setup(store), other.token);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ status: 422, error: 'Could not connect the store' });
    expect(res.body.fields[field][0]).toContain(message);
    expect(await t.ctx.db('shops').where({ account_id: other.accountId })).toHaveLength(0);
    expect(store.webhooks.size).toBe(0);
  });

  it('When the body is incomplete, then 422 names each field', async () => {
    const res = await t.as(token).post('/api/v2/shop', { url: 'ftp://shop.example', consumer_key: 'nope' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.fields).sort()).toEqual(['consumer_key', 'consumer_secret', 'url']);
  });

  it(
    'When disconnected, then our webhooks are removed from the store and the keys forgotten; another account never sees the ' + 'store',
    async () => {
      await connect();
      const other = await t.newAccount();
      expect((await t.as(other.token).get('/api/v2/shop')).status).toBe(404);
      expect((await t.as(other.token).delete('/api/v2/shop')).status).toBe(404);
      const res = await t.as(token).delete('/api/v2/shop');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('disconnected');
      expect(store.webhooks.size).toBe(0);
      expect((await t.ctx.db('shops').where({ account_id: accountId }).first()).consumer_secret_encrypted).toBe('');
    },
  );

  it('When the CLI runs without PUBLIC_URL set, then it refuses to connect instead of registering its own localhost', async () => {
    const withoutPublicUrl = { ...t.ctx, config: { ...t.ctx.config, publicUrl: 'http://localhost:3000', publicUrlSet: false } };
    const res = await cli(
      withoutPublicUrl,
      'shops',
      'connect',
      '--account',
      accountName,
      '--url',
      store.url,
      '--key',
      store.consumerKey,
      '--secret',
      store.consumerSecret,
    );
    expect(res.code).toBe(1);
    expect(res.err).toEqual([
      expect.stringContaining("error: PUBLIC_URL is not set: the store's webhooks would go to http://localhost:3000."),
    ]);
    expect(store.webhooks.size).toBe(0);
  });

  it("When the CLI connects and the store's pings do not reach PUBLIC_URL, then it prints why", async () => {
    store.transport = async () => 0;
    const res = await cli(
      t.ctx,
      'shops',
      'connect',
      '--account',
      accountName,
      '--url',
      store.url,
      '--key',
      store.consumerKey,
      '--secret',
      store.consumerSecret,
    );
    expect(res.code).toBe(0);
    expect(res.out).toEqual(
      expect.arrayContaining([
        'webhooks:         not_reachable',
        expect.stringMatching(/^not reachable: {4}the store's ping did not reach http:\/\/rps\.test/),
      ]),
    );
  });

  it('When the CLI connects with the secret on standard input, then it is connected; a wrong key prints one line', async () => {
    const ok = await cliWithStdin(
      t.ctx,
      `${store.consumerSecret}\n`,
      'shops',
      'connect',
      '--account',
      accountName,
      '--url',
      store.url,
      '--key',
      store.consumerKey,
    );
    expect(ok.code).toBe(0);
    expect(ok.out).toEqual(
      expect.arrayContaining([
        `store:            ${store.url}`,
        'status:           connected',
        'webhooks:         registered',
        `Webhooks registered at ${TEST_PUBLIC_URL}/webhooks/woocommerce/${publicRef} (PUBLIC_URL); the store's ping reached it.`,
      ]),
    );
    const wrong = await cli(
      t.ctx,
      'shops',
      'connect',
      '--account',
      accountName,
      '--url',
      store.url,
      '--key',
      store.consumerKey,
      '--secret',
      'cs_wrong',
    );
    expect(wrong.code).toBe(1);
    expect(wrong.err).toHaveLength(1);
    expect(wrong.err[0]).toContain('consumer_secret: The store refused the consumer key or secret');
    expect((await cli(t.ctx, 'shops', 'show', '--account', accountName)).out[1]).toBe('status:           connected');
    expect((await cli(t.ctx, 'shops', 'disconnect', '--account', accountName)).code).toBe(0);
    expect((await cli(t.ctx, 'shops', 'disconnect', '--account', accountName)).err).toEqual([
      `error: Account "${accountName}" has no connected store`,
    ]);
  });
});

describe('why WordPress would not send webhooks to PUBLIC_URL', () => {
  it.each([
    ['https://rps.example.com', 'https://shop.example', null],
    ['http://rps.example.com:8080', 'https://shop.example', null],
    ['http://rps.example.com:3000', 'https://shop.example', 'port 3000'],
    ['http://localhost:3000', 'https://shop.example', 'loopback or private address'],
    ['http://192.168.1.5', 'https://shop.example', 'loopback or private address'],
    ['http://127.0.0.1:8087', 'http://127.0.0.1:8086', 'port 8087'],
    ['http://127.0.0.1:8086', 'http://127.0.0.1:8086', null],
    ['http://127.0.0.1', 'http://127.0.0.1:8086', null],
  ])('PUBLIC_URL %s, store %s: %s', (publicUrl, storeUrl, refusal) => {
    const said = wordPressRefusal(publicUrl, storeUrl);
    if (refusal === null) expect(said).toBeNull();
    else expect(said).toContain(refusal);
  });

  it('When WordPress would allow it, then the reason is that the ping did not arrive', () => {
    expect(unreachableReason(wooCommerce, 'https://rps.example.com/webhooks/woocommerce/x', 'https://shop.example')).toBe(
      "the store's ping did not reach https://rps.example.com: is PUBLIC_URL reachable from the store's network?",
    );
  });
});
