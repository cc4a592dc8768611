import { migrationSource } from '../../migrations';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const name = '20261208_045_imports';
const csv = [
  'reference,signature_date,iban,account_holder,first_name,last_name,email,amount,interval,start',
  'MIG-1,2025-03-14,NL91ABNA0417164300,A. de Vries,Anna,de Vries,anna@example.nl,12.50,month,2026-12-01',
].join('\n');

describe.each(TEST_DATABASES)('the migration adding imports, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  it('When it is undone and run again, then its tables and columns go and come back; imported subscriptions stay', async () => {
    t.clock.set('2026-11-21T10:00:00Z');
    const db = t.ctx.db;
    const { token } = await t.newAccount();
    const imported = await t.as(token).post('/api/v2/imports', { source: 'csv', csv });
    expect(imported.body.counts.created).toBe(1);
    const subscriptionId = imported.body.rows.data[0].subscription_id as string;

    await db.migrate.down({ migrationSource, name });
    expect(await Promise.all(['imports', 'import_rows', 'import_items'].map((table) => db.schema.hasTable(table)))).toEqual([
      false,
      false,
      false,
    ]);
    expect(await db.schema.hasColumn('subscriptions', 'source')).toBe(false);
    expect(await db('subscriptions').where({ id: subscriptionId }).pluck('id')).toEqual([subscriptionId]);

    await db.migrate.up({ migrationSource, name });
    expect(await Promise.all(['imports', 'import_rows', 'import_items'].map((table) => db.schema.hasTable(table)))).toEqual([
      true,
      true,
      true,
    ]);
    expect(await db('subscriptions').where({ id: subscriptionId }).first('source', 'source_id')).toEqual({ source: null, source_id: null });
  });
});
