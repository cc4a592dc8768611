import { z } from 'zod';
import { RequestBudget } from '../../src/integrations/woocommerce/budget';
import { WooClient } from '../../src/integrations/woocommerce/client';
import { ShopApiError } from '../../src/integrations/errors';
import { wooIndex, wooProduct, type WooProduct } from '../../src/integrations/woocommerce/schemas';
import { WooSimulator } from '../../fakes/woocommerce/simulator';

/** The typed WooCommerce client with the real client library, against the simulator over HTTP (OAuth 1.0a). */
describe('the WooCommerce client', () => {
  let store: WooSimulator;
  const waits: number[] = [];
  const client = (overrides: { secret?: string; budget?: RequestBudget } = {}) =>
    new WooClient(
      { url: store.url, consumerKey: store.consumerKey, consumerSecret: overrides.secret ?? store.consumerSecret },
      { sleep: async (ms) => void waits.push(ms), backoffMs: 100, budget: overrides.budget, allowPrivate: true },
    );

  beforeEach(async () => {
    store = new WooSimulator();
    await store.start();
    waits.length = 0;
  });
  afterEach(() => store.stop());

  it('When the keys are right, then the API index answers; OAuth 1.0a signs every request over plain HTTP', async () => {
    const { body } = await client().get('', wooIndex);
    expect(body.namespace).toBe('wc/v3');
    expect(store.requests[0]?.query).toMatchObject({ oauth_consumer_key: store.consumerKey, oauth_signature_method: 'HMAC-SHA256' });
  });

  it.each([
    ['a name that resolves to loopback', (url: string) => url.replace('127.0.0.1', 'localhost')],
    ['a literal loopback address', (url: string) => url],
  ])('When private addresses are not allowed and the store is at %s, then nothing is sent to it', async (_case, address) => {
    const guarded = new WooClient(
      { url: address(store.url), consumerKey: store.consumerKey, consumerSecret: store.consumerSecret },
      { retries: 0, allowPrivate: false },
    );
    await expect(guarded.get('', wooIndex)).rejects.toMatchObject({ kind: 'unreachable' });
    expect(store.requests).toHaveLength(0);
    // Allowed (OUTBOUND_ALLOW_PRIVATE=on), the request reaches the same address (the simulator signs
    // for its own 127.0.0.1 URL, so under another name it refuses the signature: it was reached).
    const allowed = new WooClient(
      { url: address(store.url), consumerKey: store.consumerKey, consumerSecret: store.consumerSecret },
      { retries: 0, allowPrivate: true },
    );
    await allowed.get('', wooIndex).catch(() => undefined);
    expect(store.requests).toHaveLength(1);
  });

  it.each<[string, (store: WooSimulator) => void, string]>([
    ['a wrong secret', () => undefined, 'unauthorized'],
    ['plain permalinks', (s) => (s.prettyPermalinks = false), 'no_permalinks'],
    ['no WooCommerce', (s) => (s.wooCommerceActive = false), 'not_woocommerce'],
  ])('When the store has %s, then the error says so (%s)', async (name, setup, kind) => {
    setup(store);
    const wrong = client(name === 'a wrong secret' ? { secret: 'cs_wrong' } : {});
    await expect(wrong.get('', wooIndex)).rejects.toMatchObject({ kind, retryable: false });
  });

  it('When the store is not there, then it is unreachable (retried, then given up)', async () => {
    await store.stop();
    const error = await client()
      .get('', wooIndex)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ShopApiError);
    expect(error).toMatchObject({ kind: 'unreachable' });
    expect(waits).toEqual([100, 200, 400, 800]);
    await store.start(); // afterEach stops it again
  });

  it('When a list has 250 records, then all 3 pages of 100 are fetched, with the headers honoured', async () => {
    store.addProducts(250);
    const pages: number[] = [];
    const seen: WooProduct[] = [];
    const { totalPages } = await client().listAll('products', wooProduct, { orderby: 'id' }, async (page) => {
      pages.push(page.number);
      seen.push(...page.items);
    });
    expect(totalPages).toBe(3);
    expect(pages.sort()).toEqual([1, 2, 3]);
    expect(new Set(seen.map((product) => product.id)).size).toBe(250);
    expect(store.requests.filter((request) => request.path.endsWith('/products')).map((request) => request.query.per_page)).toEqual([
      '100',
      '100',
      '100',
    ]);
  });

  it('When one record is malformed, then it fails alone, named by its id', async () => {
    const [, bad] = store.addProducts(3);
    store.products.set(bad as number, { id: bad, name: 42, type: 'simple' });
    const rejected: unknown[] = [];
    let good = 0;
    await client().listAll('products', wooProduct, {}, async (page) => {
      good += page.items.length;
      rejected.push(...page.rejected);
    });
    expect(good).toBe(2);
    expect(rejected).toEqual([{ id: bad, error: expect.stringContaining('name') }]);
  });

  it('When the store answers 429 with Retry-After or 500, then the request is retried after the time it asks', async () => {
    store.fail('GET', /\/products$/, 429, 1, '7');
    store.fail('GET', /\/products$/, 503, 1);
    store.addProducts(1);
    let count = 0;
    await client().listAll('products', wooProduct, {}, async (page) => void (count += page.items.length));
    expect(count).toBe(1);
    expect(waits).toEqual([7000, 200]);
  });

  it('When a body is not what wc/v3 answers, then the error names it and nothing crashes', async () => {
    await expect(client().get('', z.object({ namespace: z.literal('wc/v2') }))).rejects.toMatchObject({ kind: 'unexpected_answer' });
  });

  it('When the budget allows 2 requests at once, then no more than 2 pages are ever in flight', async () => {
    store.addProducts(600);
    store.latencyMs = 30;
    let inFlight = 0;
    let most = 0;
    const budget = new RequestBudget(2, 1000);
    const original = budget.run.bind(budget);
    budget.run = async <T>(work: () => Promise<T>) =>
      original(async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        try {
          return await work();
        } finally {
          inFlight -= 1;
        }
      });
    await client({ budget }).listAll('products', wooProduct, {}, async () => undefined);
    expect(most).toBe(2);
  });
});
