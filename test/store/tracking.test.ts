import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { accountWithConnectedStore } from '../support/connectedStore';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

/**
 * The tracking job reads shipment tracking of paid store orders (not the completed ones) from the
 * store: the Shipment Tracking extension's order meta, or its own endpoint when the meta is not
 * there, and fills the orders' carrier and tracktrace.
 */
describe.each(TEST_DATABASES)('shipment tracking on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let store: WooSimulator;
  let token: string;

  beforeEach(async () => {
    ({ token, store } = await accountWithConnectedStore(t));
  });
  afterEach(async () => {
    await store.stop();
  });

  const syncOrders = async () => {
    expect((await t.as(token).post('/api/v2/sync/orders', {})).status).toBe(202);
    await t.ctx.background.idle();
  };
  const trackingMeta = (items: object[]) => ({ meta_data: [{ key: '_wc_shipment_tracking_items', value: items }] });
  const ordersShown = async () => {
    const res = await t.as(token).get('/api/v2/orders?per_page=50');
    return Object.fromEntries(
      res.body.data.map((order: { shop_order_id: number; carrier: string | null; tracktrace: string | null }) => [
        order.shop_order_id,
        [order.carrier, order.tracktrace],
      ]),
    );
  };

  it(
    'When a paid order has tracking in its meta, then the job fills carrier and tracktrace (the latest parcel, a custom carrier ' +
      'first); GET /api/v2/orders shows them',
    async () => {
      const [withMeta, custom, untracked] = store.addOrders(3) as [number, number, number];
      Object.assign(
        store.orders.get(withMeta) as object,
        trackingMeta([
          { tracking_provider: 'dhl', tracking_number: 'OLD1', date_shipped: '1763683200' },
          { tracking_provider: 'postnl', tracking_number: '3SABCD1234567', date_shipped: '1763769600' },
        ]),
      );
      Object.assign(
        store.orders.get(custom) as object,
        trackingMeta([{ tracking_provider: '', custom_tracking_provider: 'Fietskoerier', tracking_number: 'FK-9' }]),
      );
      await syncOrders();

      const run = await cli(t.ctx, 'jobs', 'run', 'track-shipments');
      expect(run.out).toEqual([expect.stringMatching(/^track-shipments: 2 processed, 0 failed/)]);
      expect(await ordersShown()).toEqual({
        [withMeta]: ['postnl', '3SABCD1234567'],
        [custom]: ['Fietskoerier', 'FK-9'],
        [untracked]: [null, null],
      });
      // One request for the whole batch of orders; the extension's endpoint is not installed: asked once, then left alone.
      const asked = store.requests.filter(
        (request) => request.method === 'GET' && request.path.endsWith('/orders') && request.query.include,
      );
      expect(asked).toHaveLength(1);
      expect(store.requests.filter((request) => request.path.includes('shipment-trackings'))).toHaveLength(1);

      // Nothing changed: a second run writes nothing.
      expect((await cli(t.ctx, 'jobs', 'run', 'track-shipments')).out).toEqual([
        expect.stringMatching(/^track-shipments: 0 processed, 0 failed/),
      ]);
    },
  );

  it(
    'When the meta is not shown but the extension is installed, then its endpoint is read; completed and unpaid orders are not ' + 'asked',
    async () => {
      store.trackingExtension = true;
      const [paid, completed, unpaid] = store.addOrders(3) as [number, number, number];
      Object.assign(store.orders.get(completed) as object, { status: 'completed' });
      Object.assign(store.orders.get(unpaid) as object, { status: 'pending' });
      store.trackings.set(paid, [{ tracking_provider: 'ups', tracking_number: '1Z999AA10123456784' }]);
      store.trackings.set(completed, [{ tracking_provider: 'ups', tracking_number: 'IGNORED' }]);
      await syncOrders();

      await cli(t.ctx, 'jobs', 'run', 'track-shipments');
      expect(await ordersShown()).toEqual({ [paid]: ['ups', '1Z999AA10123456784'], [completed]: [null, null], [unpaid]: [null, null] });
      const include = store.requests.find((request) => request.path.endsWith('/orders') && request.query.include)?.query.include;
      expect(include).toBe(String(paid));
    },
  );
});
