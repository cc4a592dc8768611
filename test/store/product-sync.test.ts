import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { createTestApp, useTestApp } from '../support/testApp';
import { accountWithConnectedStore } from '../support/connectedStore';
import { WooSimulator } from '../../fakes/woocommerce/simulator';

describe.each(TEST_DATABASES)('syncing store products on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let store: WooSimulator;
  let token: string;
  let accountId: string;

  beforeEach(async () => {
    ({ token, accountId, store } = await accountWithConnectedStore(t));
  });
  afterEach(async () => {
    await store.stop();
  });

  /** Starts a sync, waits for it to end and answers the finished run. */
  async function sync(body: object = {}) {
    const started = await t.as(token).post('/api/v2/sync/products', body);
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ kind: 'products', status: 'running' });
    await t.ctx.background.idle();
    const run = await t.as(token).get(`/api/v2/sync/runs/${started.body.id}`);
    expect(run.status).toBe(200);
    return run.body;
  }
  const productRows = () => t.ctx.db('products').where({ account_id: accountId }).orderBy('shop_product_id');
  const productRequests = () => store.requests.filter((request) => request.path.endsWith('/products'));

  it('When 250 products are synced, then 3 pages are read and each becomes a Product with its store id', async () => {
    store.addProducts(250);
    const run = await sync();
    expect(run).toMatchObject({
      status: 'succeeded',
      full: false,
      progress: { pages_done: 3, pages_total: 3, created: 250, updated: 0, unchanged: 0, failed: 0 },
      errors: [],
    });
    expect(productRequests().map((request) => request.query.per_page)).toEqual(['100', '100', '100']);
    const list = await t.as(token).get('/api/v2/products?per_page=5');
    expect(list.body.meta.total).toBe(250);
    expect(list.body.data[0]).toEqual({
      id: expect.stringMatching(/^prd_/),
      name: 'Product 1',
      type: 'once',
      amount: '9.95',
      currency: 'EUR',
      interval: null,
      times: null,
      shop_product_id: expect.any(Number),
    });
  });

  it('When the sync is repeated, then nothing changes; an incremental one reads only what changed since, with an overlap', async () => {
    const ids = store.addProducts(120);
    await sync();
    const full = await sync({ full: true });
    expect(full.progress).toMatchObject({ created: 0, updated: 0, unchanged: 120 });
    store.requests.length = 0;
    // Two products change in the store an hour after the newest seen so far.
    for (const [index, id] of [ids[3], ids[40]].entries()) {
      Object.assign(store.products.get(id as number) as object, { name: `Renamed ${index}`, date_modified_gmt: '2026-11-01T01:00:00' });
    }
    const incremental = await sync();
    expect(productRequests()[0]?.query).toMatchObject({
      modified_after: '2026-10-31T23:56:59',
      dates_are_gmt: 'true',
      orderby: 'modified',
      order: 'asc',
    });
    expect(incremental.progress).toMatchObject({ created: 0, updated: 2 });
    expect(incremental.progress.unchanged).toBeLessThan(120);
    expect((await productRows()).filter((row) => row.name.startsWith('Renamed'))).toHaveLength(2);
  });

  it(
    'When products are subscriptions, shipping costs or trashed, then they map to subscription (interval, times), shipping_costs and ' +
      'deleted',
    async () => {
      store.addProducts(
        4,
        (index) =>
          [
            {
              type: 'subscription',
              price: '10.00',
              meta_data: [
                { key: '_subscription_price', value: '12.50' },
                { key: '_subscription_period', value: 'month' },
                { key: '_subscription_period_interval', value: '2' },
                { key: '_subscription_length', value: '12' },
              ],
            },
            {
              type: 'subscription',
              meta_data: [
                { key: '_subscription_price', value: '5' },
                { key: '_subscription_period', value: 'week' },
                { key: '_subscription_length', value: '0' },
              ],
            },
            { name: 'Shipping', price: '4.95', meta_data: [{ key: '_rps_shipping_costs', value: 'yes' }] },
            { status: 'trash' },
          ][index] ?? {},
      );
      await sync();
      const rows = await productRows();
      expect(
        rows.map((row) => [
          row.type,
          Number(row.amount),
          row.interval,
          row.interval_value === null ? null : Number(row.interval_value),
          row.times === null ? null : Number(row.times),
          row.deleted_at !== null,
        ]),
      ).toEqual([
        ['subscription', 1250, 'month', 2, 6, false],
        ['subscription', 500, 'week', 1, null, false],
        ['shipping_costs', 495, null, null, null, false],
        ['once', 995, null, null, null, true],
      ]);
    },
  );

  it(
    'When a variable product is synced, then each of its variations becomes a Product at its own price, and the variable one ' +
      'is none; a variation changed or deleted later is synced incrementally',
    async () => {
      store.addProducts(1);
      const { productId, variationIds } = store.addVariableProduct({
        name: 'Shirt',
        variations: [
          { options: { Colour: 'Blue', Size: 'S' }, price: '12.50' },
          { options: { Colour: 'Red', Size: 'L' }, price: '15.00' },
        ],
      });
      const run = await sync();
      expect(run).toMatchObject({ status: 'succeeded', progress: { failed: 0 }, errors: [] });
      expect(store.requests.filter((request) => request.path.endsWith(`/products/${productId}/variations`))).toHaveLength(1);
      const list = await t.as(token).get('/api/v2/products?per_page=10');
      expect(list.body.meta.total).toBe(3);
      const byStoreId = new Map(list.body.data.map((product: { shop_product_id: number }) => [product.shop_product_id, product]));
      expect(byStoreId.has(productId)).toBe(false);
      expect(byStoreId.get(variationIds[0])).toMatchObject({ name: 'Shirt — Blue, S', amount: '12.50', type: 'once' });
      expect(byStoreId.get(variationIds[1])).toMatchObject({ name: 'Shirt — Red, L', amount: '15.00', type: 'once' });
      expect((await productRows()).filter((row) => Number(row.shop_parent_product_id) === productId)).toHaveLength(2);

      // Saving a variation saves its product too (a new date_modified_gmt): the incremental sync reads both.
      store.saveVariation(variationIds[1] as number, { price: '16.00', regular_price: '16.00' }, { at: '2026-11-30T10:00:00' });
      expect((await sync()).progress).toMatchObject({ updated: 1, failed: 0 });
      const red = (await t.as(token).get('/api/v2/products?per_page=10')).body.data.find(
        (product: { shop_product_id: number }) => product.shop_product_id === variationIds[1],
      );
      expect(red).toMatchObject({ amount: '16.00' });

      store.saveVariation(variationIds[0] as number, {}, { deleted: true, at: '2026-11-30T11:00:00' });
      await sync();
      const rows = await productRows();
      expect(rows.find((row) => Number(row.shop_product_id) === variationIds[0])?.deleted_at).not.toBeNull();
      expect(rows.find((row) => Number(row.shop_product_id) === variationIds[1])?.deleted_at).toBeNull();
    },
  );

  it(
    'When products carry the plugin’s _rps_* meta (a simple product and each variation its own), then they map to subscriptions ' +
      'with interval, count, times = length (payments including the first), trial days and sign-up fee; a variation without it ' +
      'is sold once, and _subscription_* products are mapped as before',
    async () => {
      const rps = (extra: Array<{ key: string; value: string }>) => [{ key: '_rps_recurring', value: 'yes' }, ...extra];
      const [monthly, plain] = store.addProducts(2, (index) =>
        index === 0
          ? {
              price: '20.00',
              meta_data: rps([
                { key: '_rps_interval', value: 'month' },
                { key: '_rps_interval_count', value: '1' },
                { key: '_rps_length', value: '3' },
              ]),
            }
          : { price: '3.00' },
      );
      const { variationIds } = store.addVariableProduct({
        name: 'Box',
        variations: [
          {
            options: { Size: 'S' },
            price: '9.00',
            meta_data: rps([
              { key: '_rps_interval', value: 'week' },
              { key: '_rps_interval_count', value: '2' },
              { key: '_rps_trial_days', value: '14' },
              { key: '_rps_signup_fee', value: '4.95' },
            ]),
          },
          { options: { Size: 'L' }, price: '12.00' },
        ],
      });
      const run = await sync();
      expect(run).toMatchObject({ status: 'succeeded', progress: { failed: 0 }, errors: [] });
      const rows = await productRows();
      const byStoreId = (id: number | undefined) => rows.find((row) => Number(row.shop_product_id) === id);
      const shape = (row: Record<string, unknown> | undefined) =>
        row && [
          row.type,
          Number(row.amount),
          row.interval,
          row.interval_value === null ? null : Number(row.interval_value),
          row.times === null ? null : Number(row.times),
          row.trial_days === null ? null : Number(row.trial_days),
          row.signup_fee === null ? null : Number(row.signup_fee),
        ];
      expect(shape(byStoreId(monthly))).toEqual(['subscription', 2000, 'month', 1, 3, null, null]);
      expect(shape(byStoreId(plain))).toEqual(['once', 300, null, null, null, null, null]);
      expect(shape(byStoreId(variationIds[0]))).toEqual(['subscription', 900, 'week', 2, null, 14, 495]);
      expect(shape(byStoreId(variationIds[1]))).toEqual(['once', 1200, null, null, null, null, null]);
      const listed = (await t.as(token).get('/api/v2/products?per_page=10')).body.data;
      expect(listed.find((product: { shop_product_id: number }) => product.shop_product_id === monthly)).toMatchObject({
        type: 'subscription',
        interval: 'month',
        times: 3,
        amount: '20.00',
      });
    },
  );

  it('When _rps_* meta is malformed, then the product fails alone naming the meta, and the others are synced', async () => {
    const bad = (meta: Array<{ key: string; value: string }>) => ({ meta_data: [{ key: '_rps_recurring', value: 'yes' }, ...meta] });
    const ids = store.addProducts(
      5,
      (index) =>
        [
          bad([{ key: '_rps_interval', value: 'fortnight' }]),
          bad([
            { key: '_rps_interval', value: 'month' },
            { key: '_rps_interval_count', value: '0' },
          ]),
          bad([
            { key: '_rps_interval', value: 'month' },
            { key: '_rps_length', value: '-1' },
          ]),
          bad([
            { key: '_rps_interval', value: 'month' },
            { key: '_rps_signup_fee', value: 'free' },
          ]),
          {},
        ][index] ?? {},
    );
    const run = await sync();
    expect(run).toMatchObject({ status: 'succeeded', progress: { created: 1, failed: 4 } });
    expect(run.errors).toEqual(
      expect.arrayContaining([
        { record: `product ${ids[0]}`, error: '_rps_interval "fortnight" is not day, week, month or year' },
        { record: `product ${ids[1]}`, error: '_rps_interval_count "0" is not a whole number ≥ 1' },
        { record: `product ${ids[2]}`, error: '_rps_length "-1" is not a whole number ≥ 0' },
        { record: `product ${ids[3]}`, error: '_rps_signup_fee "free" is not an amount' },
      ]),
    );
  });

  it('When a variable product was synced as one product before, then it is marked deleted and its variations come in', async () => {
    const { productId } = store.addVariableProduct({ name: 'Mug', variations: [{ options: { Size: 'L' }, price: '8.00' }] });
    const now = '2026-11-20 00:00:00';
    await t.ctx.db('products').insert({
      id: 'prd_oldvariable',
      account_id: accountId,
      type: 'once',
      name: 'Mug',
      amount: 800,
      currency: 'EUR',
      vat_basis_points: 0,
      interval: null,
      interval_value: null,
      times: null,
      shop_product_id: productId,
      deleted_at: null,
      created_at: now,
      updated_at: now,
    });
    await sync({ full: true });
    const rows = await productRows();
    expect(rows.find((row) => row.id === 'prd_oldvariable')?.deleted_at).not.toBeNull();
    expect(rows.filter((row) => row.deleted_at === null)).toEqual([expect.objectContaining({ name: 'Mug — L', amount: 800 })]);
  });

  it('When one product is malformed, then it fails alone, named, and the others are synced', async () => {
    const [, bad, unmappable] = store.addProducts(5);
    store.products.set(bad as number, { id: bad, name: null, type: 'simple' });
    Object.assign(store.products.get(unmappable as number) as object, {
      type: 'subscription',
      meta_data: [{ key: '_subscription_period', value: 'fortnight' }],
    });
    const run = await sync();
    expect(run).toMatchObject({ status: 'succeeded', progress: { created: 3, failed: 2 } });
    expect(run.errors).toEqual(
      expect.arrayContaining([
        { record: `product ${bad}`, error: expect.stringContaining('name') },
        { record: `product ${unmappable}`, error: '_subscription_period "fortnight" is not day, week, month or year' },
      ]),
    );
  });

  it('When the store answers 429 and 500, then the pages are retried and the sync succeeds', async () => {
    store.addProducts(150);
    store.fail('GET', /\/products$/, 429, 1, '1');
    store.fail('GET', /\/products$/, 500, 1);
    const run = await sync();
    expect(run).toMatchObject({ status: 'succeeded', progress: { created: 150 } });
  });

  it('When a products sync is running, then a second start answers 409 naming it, and after it ends a new one starts', async () => {
    store.addProducts(10);
    store.latencyMs = 300;
    const first = await t.as(token).post('/api/v2/sync/products', {});
    const second = await t.as(token).post('/api/v2/sync/products', { full: true });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe(`A products sync of this store is running already: ${first.body.id}`);
    await t.ctx.background.idle();
    const list = await t.as(token).get('/api/v2/sync/runs');
    expect(list.body.data.map((run: { id: string; status: string }) => [run.id, run.status])).toEqual([[first.body.id, 'succeeded']]);
    expect((await t.as(token).post('/api/v2/sync/products', {})).status).toBe(202);
  });

  it('When another account asks, then it sees no runs; without a store a sync cannot start', async () => {
    store.addProducts(1);
    const run = await sync();
    const other = await t.newAccount();
    expect((await t.as(other.token).get(`/api/v2/sync/runs/${run.id}`)).status).toBe(404);
    expect((await t.as(other.token).get('/api/v2/sync/runs')).body.data).toEqual([]);
    const refused = await t.as(other.token).post('/api/v2/sync/products', {});
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'shop_not_connected', error: expect.stringContaining('no store is connected') });
  });
});

describe.each(TEST_DATABASES)('the periodic store sync on %s', (kind) => {
  it('When the job runs, then every connected store is synced incrementally, and a second run reads only changes', async () => {
    const t = await createTestApp(kind);
    const store = new WooSimulator();
    await store.start();
    try {
      const { token, accountId } = await t.newAccount();
      await t.as(token).post('/api/v2/shop', { url: store.url, consumer_key: store.consumerKey, consumer_secret: store.consumerSecret });
      store.addProducts(3);
      // products, then orders
      expect((await cli(t.ctx, 'jobs', 'run', 'sync-stores')).out).toEqual([expect.stringMatching(/^sync-stores: 2 processed, 0 failed/)]);
      expect(await t.ctx.db('products').where({ account_id: accountId })).toHaveLength(3);
      store.requests.length = 0;
      await cli(t.ctx, 'jobs', 'run', 'sync-stores');
      expect(store.requests.find((request) => request.path.endsWith('/products'))?.query.modified_after).toBeDefined();
    } finally {
      await store.stop();
      await t.close();
    }
  });
});
