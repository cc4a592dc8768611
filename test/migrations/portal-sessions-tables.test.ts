import { migrationSource } from '../../migrations';
import { TEST_DATABASES } from '../support/databases';
import { seedCustomer } from '../support/seed';
import { useTestApp } from '../support/testApp';

const name = '20261205_040_portal_sessions';

describe.each(TEST_DATABASES)('the migration adding portal links and sessions, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  it('When it is undone and run again, then the tables go and come back, and customers keep their rows', async () => {
    const db = t.ctx.db;
    const { accountId } = await t.newAccount();
    const customer = await seedCustomer(db, accountId);
    await db.migrate.down({ migrationSource, name });
    expect([await db.schema.hasTable('portal_tokens'), await db.schema.hasTable('portal_sessions')]).toEqual([false, false]);
    await db.migrate.up({ migrationSource, name });
    expect([await db.schema.hasTable('portal_tokens'), await db.schema.hasTable('portal_sessions')]).toEqual([true, true]);
    expect(await db('customers').where({ id: customer.id }).pluck('email')).toEqual([customer.email]);
  });
});
