import { migrationSource } from '../../migrations';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const name = '20261205_041_portal_actions';

describe.each(TEST_DATABASES)('the migration keeping a cancel reason and who started a takeover, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  it('When it is undone and run again, then the two columns go and come back', async () => {
    const db = t.ctx.db;
    await db.migrate.down({ migrationSource, name });
    expect(await db.schema.hasColumn('subscriptions', 'cancel_reason')).toBe(false);
    expect(await db.schema.hasColumn('mandate_takeovers', 'requested_via')).toBe(false);
    await db.migrate.up({ migrationSource, name });
    expect(await db.schema.hasColumn('subscriptions', 'cancel_reason')).toBe(true);
    expect(await db.schema.hasColumn('mandate_takeovers', 'requested_via')).toBe(true);
  });
});
