import { migrationSource } from '../../migrations';
import { TEST_DATABASES } from '../support/databases';
import { accountAtMollieFake } from '../support/mollieAccount';
import { useTestApp } from '../support/testApp';

const name = '20261215_054_handover_and_mandate_use';

describe.each(TEST_DATABASES)('the migration recording hand-over cancels and where mandates came from, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  it(
    'When it is undone and run again, then its tables and column go and come back, and a mandate a first payment of ours ' +
      'made is placed as such (others stay unplaced: asked about before revoking)',
    async () => {
      t.clock.set('2026-11-21T10:00:00Z');
      const db = t.ctx.db;
      const mollie = await accountAtMollieFake(t, 'Migration 054');
      try {
        const customer = await mollie.newCustomer();
        const link = await t
          .as(mollie.token)
          .post('/api/v2/links', { type: 'mandate', description: 'Authorise', customer_id: customer.id });
        const byFirstPayment = await mollie.payLink(link.body.id);
        const byApi = await t
          .as(mollie.token)
          .post(`/api/v2/customers/${customer.id}/mandates`, { consumer_name: 'A. de Vries', consumer_account: 'NL91ABNA0417164300' });
        expect(byApi.status).toBe(201);
        const origins = () => db('mandates').where({ account_id: mollie.accountId }).orderBy('id').select('id', 'origin');

        await db.migrate.down({ migrationSource, name });
        expect(await db.schema.hasTable('import_handovers')).toBe(false);
        expect(await db.schema.hasTable('mandate_waiting_takeovers')).toBe(false);
        expect(await db.schema.hasColumn('mandates', 'origin')).toBe(false);

        await db.migrate.up({ migrationSource, name });
        expect(await db.schema.hasTable('import_handovers')).toBe(true);
        expect(await db.schema.hasTable('mandate_waiting_takeovers')).toBe(true);
        expect(await origins()).toEqual(
          [
            { id: byFirstPayment, origin: 'first_payment' },
            { id: byApi.body.id as string, origin: null },
          ].sort((a, b) => (a.id < b.id ? -1 : 1)),
        );
      } finally {
        mollie.stop();
      }
    },
  );
});
