import { migrationSource } from '../../migrations';
import { portalSettingsOf } from '../../src/modules/accounts/portalSettings';
import { merchantProfileOf } from '../../src/modules/accounts/profile';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const name = '20261204_039_account_profile_and_portal';
const COLUMNS = ['contact_email', 'creditor_id', 'portal_allowed_actions', 'portal_max_pause_days'];

describe.each(TEST_DATABASES)('the migration giving accounts a contact e-mail, creditor id and portal settings, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  it('When it is undone and run again, then the columns go and come back, and existing accounts read the defaults', async () => {
    const db = t.ctx.db;
    const { accountId } = await t.newAccount('Migrated Shop');
    await db('accounts').where({ id: accountId }).update({ display_name: 'Koffieclub' });
    await db.migrate.down({ migrationSource, name });
    for (const column of COLUMNS) expect(await db.schema.hasColumn('accounts', column)).toBe(false);
    await db.migrate.up({ migrationSource, name });
    for (const column of COLUMNS) expect(await db.schema.hasColumn('accounts', column)).toBe(true);
    expect(await merchantProfileOf(db, accountId)).toEqual({ displayName: 'Koffieclub', contactEmail: null, creditorId: null });
    const settings = await portalSettingsOf(db, accountId);
    expect([[...settings.allowed], settings.maxPauseDays]).toEqual([['pause', 'skip', 'cancel', 'change-method'], 92]);
    // Accounts can still be made after the round trip.
    const later = await t.newAccount('Made After');
    expect(await merchantProfileOf(db, later.accountId)).toMatchObject({ displayName: 'Made After' });
  });
});
