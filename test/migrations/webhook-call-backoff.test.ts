import { migrationSource } from '../../migrations';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const name = '20261122_010_webhook_call_backoff';

describe.each(TEST_DATABASES)('the migration giving provider webhook calls a backoff, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  it('When it is undone and run again, then the columns go and come back, and waiting calls are due at their arrival', async () => {
    const { accountId } = await t.newAccount();
    const db = t.ctx.db;
    await db.migrate.down({ migrationSource, name });
    expect(await db.schema.hasColumn('provider_webhook_calls', 'next_attempt_at')).toBe(false);
    expect(await db.schema.hasColumn('provider_webhook_calls', 'gave_up_at')).toBe(false);

    const call = { account_id: accountId, provider: 'mollie', attempts: 1 };
    await db('provider_webhook_calls').insert([
      { ...call, resource_id: 'tr_waiting', received_at: '2026-11-21 09:00:00', processed_at: null },
      { ...call, resource_id: 'tr_done', received_at: '2026-11-21 09:30:00', processed_at: '2026-11-21 09:30:01' },
    ]);
    await db.migrate.up({ migrationSource, name });

    const rows = await db('provider_webhook_calls').orderBy('seq').select('resource_id', 'next_attempt_at', 'gave_up_at');
    expect(rows).toEqual([
      { resource_id: 'tr_waiting', next_attempt_at: '2026-11-21 09:00:00', gave_up_at: null },
      { resource_id: 'tr_done', next_attempt_at: null, gave_up_at: null },
    ]);
  });
});
