import { migrationSource } from '../../migrations';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const name = '20261202_031_store_delivery_content';

describe.each(TEST_DATABASES)('the migration deduplicating store deliveries on their content, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  it('When it runs over deliveries seen before, then they keep their delivery id as their key; undoing it keeps each id once', async () => {
    const db = t.ctx.db;
    const { accountId } = await t.newAccount();
    // Newer migrations than this one would be undone first: undo down to it.
    await db.migrate.down({ migrationSource, name });
    expect(await db.schema.hasColumn('shop_webhook_deliveries', 'content_key')).toBe(false);
    const seen = { account_id: accountId, topic: 'order.updated', resource_id: '7001', received_at: '2026-11-24 10:00:00' };
    await db('shop_webhook_deliveries').insert({ ...seen, delivery_id: 'd-1' });

    await db.migrate.up({ migrationSource, name });
    expect(await db('shop_webhook_deliveries').first('delivery_id', 'content_key')).toEqual({ delivery_id: 'd-1', content_key: 'd-1' });
    await db('shop_webhook_deliveries').insert({ ...seen, resource_id: '7002', delivery_id: 'd-1', content_key: 'order.updated|7002' });
    expect(await db.schema.hasColumn('orders', 'shop_modified_at')).toBe(true);
    expect(await db.schema.hasColumn('products', 'shop_modified_at')).toBe(true);

    await db.migrate.down({ migrationSource, name });
    expect(await db('shop_webhook_deliveries').select('delivery_id', 'resource_id')).toEqual([{ delivery_id: 'd-1', resource_id: '7001' }]);
    expect(await db.schema.hasColumn('orders', 'shop_modified_at')).toBe(false);
    await db.migrate.up({ migrationSource, name });
  });
});
