import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { accountWithConnectedStore } from '../support/connectedStore';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

describe.each(TEST_DATABASES)("our webhooks' status in the store on %s", (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let store: WooSimulator;
  let token: string;
  let accountId: string;

  beforeEach(async () => {
    ({ token, accountId, store } = await accountWithConnectedStore(t));
  });
  afterEach(() => store.stop());

  const inStore = async () => (await t.as(token).get('/api/v2/shop')).body.webhooks;
  const statusOf = (hooks: Array<{ topic: string; status: string }>, topic: string) => hooks.find((hook) => hook.topic === topic)?.status;
  const productNames = async () =>
    (await t.ctx.db('products').where({ account_id: accountId }).orderBy('name')).map((row: { name: string }) => row.name);

  it(
    'When deliveries fail until the store disables a webhook, then GET /api/v2/shop shows it disabled; the sync job sets it active ' +
      'and catches up what it missed',
    async () => {
      const working = store.transport;
      let sent = 0;
      store.transport = async () => ((sent += 1), 503);
      const [coffee] = store.addProducts(1, () => ({ name: 'Coffee beans' }));
      // No retries: each change is sent once; the seventh failure in a row disables the webhook.
      for (let attempt = 0; attempt < 7; attempt += 1) store.enqueue('product.updated', coffee as number);
      expect(await store.runQueue()).toEqual([503, 503, 503, 503, 503, 503, 503]);
      expect(sent).toBe(7);
      const disabled = [...store.webhooks.values()].find((hook) => hook.topic === 'product.updated');
      expect(disabled?.status).toBe('disabled');
      store.enqueue('product.updated', coffee as number);
      expect(await store.runQueue()).toEqual([null]);
      expect(sent).toBe(7);

      const shown = await inStore();
      expect(shown.state).toBe('registered');
      expect(statusOf(shown.in_store, 'product.updated')).toBe('disabled');
      expect(statusOf(shown.in_store, 'order.updated')).toBe('active');
      expect(shown.last_checked_at).toEqual(expect.any(String));
      expect(await productNames()).toEqual([]);

      store.transport = working;
      expect((await cli(t.ctx, 'jobs', 'run', 'sync-stores')).code).toBe(0);
      expect(disabled?.status).toBe('active');
      expect(statusOf((await inStore()).in_store, 'product.updated')).toBe('active');
      expect(await productNames()).toEqual(['Coffee beans']);
      // It delivers again.
      store.products.set(coffee as number, { ...store.products.get(coffee as number), name: 'Espresso beans' });
      store.enqueue('product.updated', coffee as number);
      expect(await store.runQueue()).toEqual([200]);
      expect(await productNames()).toEqual(['Espresso beans']);
    },
  );

  it('When a webhook is deleted in the store, then it shows missing; the sync job registers it again, pinged, with a new id', async () => {
    const gone = [...store.webhooks.values()].find((hook) => hook.topic === 'order.created');
    store.webhooks.delete(gone?.id as number);
    expect(statusOf((await inStore()).in_store, 'order.created')).toBe('missing');
    expect((await cli(t.ctx, 'jobs', 'run', 'sync-stores')).code).toBe(0);
    const again = [...store.webhooks.values()].find((hook) => hook.topic === 'order.created');
    expect(again?.id).not.toBe(gone?.id);
    expect(again?.pending_delivery).toBe(false);
    const shown = await inStore();
    expect(shown.in_store).toContainEqual({ topic: 'order.created', id: again?.id, status: 'active' });
    expect(shown.in_store).toHaveLength(6);
    expect(JSON.parse((await t.ctx.db('shops').where({ account_id: accountId }).first()).webhook_ids)).toContain(again?.id);
  });

  it('When the store does not answer, then GET /api/v2/shop shows the last check', async () => {
    const before = await inStore();
    store.fail('GET', /\/webhooks$/, 500);
    const res = await t.as(token).get('/api/v2/shop');
    expect(res.status).toBe(200);
    expect(res.body.webhooks).toEqual(before);
  });

  it('When a webhook delivers changes within one second, then they share its delivery id and each is applied', async () => {
    store.now = () => new Date('2026-11-24T10:00:00.100Z');
    const [first, second] = store.addProducts(2, (index) => ({ name: `Tea ${index + 1}` })) as [number, number];
    const ids = [first, second].map(
      (id) => store.delivery('product.created', store.products.get(id) ?? {}).headers['X-WC-Webhook-Delivery-ID'],
    );
    expect(ids[0]).toBe(ids[1]);
    store.enqueue('product.created', first);
    store.enqueue('product.created', second);
    expect(await store.runQueue()).toEqual([200, 200]);
    expect(await productNames()).toEqual(['Tea 1', 'Tea 2']);
  });

  it('When a change waits in the queue, then the delivery carries the resource as it is when it runs', async () => {
    const [id] = store.addProducts(1, () => ({ name: 'Before' })) as [number];
    store.enqueue('product.updated', id);
    store.products.set(id, { ...store.products.get(id), name: 'After' });
    await store.runQueue();
    expect(await productNames()).toEqual(['After']);
    // A deleted resource is only its id.
    store.products.delete(id);
    store.enqueue('product.deleted', id);
    expect(await store.runQueue()).toEqual([200]);
    expect((await t.ctx.db('products').where({ account_id: accountId }).first()).deleted_at).not.toBeNull();
  });
});
