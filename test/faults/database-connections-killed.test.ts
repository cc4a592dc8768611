import knex, { type Knex } from 'knex';
import { CHARGE_RETRY_AFTER_MS } from '../../src/modules/billing/charging';
import { CLAIM_MS, runBilling } from '../../src/modules/billing/run';
import { billableAccountAtFake } from '../support/billingProcesses';
import type { MollieFake } from '../../fakes/mollie/fake';
import { fakeMollieOnClock } from '../../fakes/mollie/nock';
import { useTestApp } from '../support/testApp';

const SUBSCRIPTIONS = 120;

/**
 * MySQL drops every connection of the service in the middle of a billing run (a failover, a killed
 * session). The run fails what it was doing; the next runs pick up where it stopped; every period is
 * charged exactly once and none is lost. MySQL only: SQLite has no connections to kill.
 */
const describeOnMysql = process.env.TEST_MYSQL_URL ? describe : describe.skip;

describeOnMysql('billing while MySQL kills the service’s connections', () => {
  const t = useTestApp('mysql', { perTest: true, audited: true });
  let fake: MollieFake;
  let served: { stop(): void };
  let admin: Knex;

  beforeEach(async () => {
    ({ fake, ...served } = fakeMollieOnClock(t.clock));
    admin = knex({ client: 'mysql2', connection: { uri: process.env.TEST_MYSQL_URL } as never, pool: { min: 0, max: 1 } });
  });
  afterEach(async () => {
    served.stop();
    await admin.destroy();
  });

  /** KILLs every connection to the test's database but the admin's own. */
  async function killServiceConnections(): Promise<number> {
    const database = new URL(t.ctx.config.DATABASE_URL).pathname.slice(1);
    const [rows] = (await admin.raw('SELECT id FROM information_schema.processlist WHERE db = ? AND id <> CONNECTION_ID()', [
      database,
    ])) as [Array<{ id: number }>];
    for (const { id } of rows) await admin.raw(`KILL ${Number(id)}`).catch(() => undefined);
    return rows.length;
  }

  it('When every connection is killed during the run, then later runs charge every period exactly once', async () => {
    const accountId = await billableAccountAtFake(t, fake, undefined, SUBSCRIPTIONS);

    const run = runBilling(t.ctx, '2026-12-01').catch((error: unknown) => error);
    while (fake.payments.size < SUBSCRIPTIONS / 4) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await killServiceConnections()).toBeGreaterThan(0);
    // It ends with an error or with charges left undone: the kill hit it. Either way nothing is lost.
    const first = await run;
    expect(first instanceof Error || (first as { charged: number }).charged < SUBSCRIPTIONS).toBe(true);

    let charged = 0;
    for (let attempt = 0; attempt < 10 && charged < SUBSCRIPTIONS; attempt += 1) {
      t.clock.advance(Math.max(CHARGE_RETRY_AFTER_MS, CLAIM_MS) + 1_000);
      // A pooled connection MariaDB killed while idle may only show it on its next query: that run
      // fails, as the first did, and the scheduler's next run goes on. Any other failure fails the test.
      await runBilling(t.ctx, '2026-12-01').catch((error: unknown) => {
        if ((error as { code?: string }).code !== 'PROTOCOL_CONNECTION_LOST') throw error;
      });
      charged = (await t.ctx.db('subscription_charges').where({ account_id: accountId, status: 'charged' })).length;
    }
    expect(charged).toBe(SUBSCRIPTIONS);
    const payments = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' });
    expect(payments).toHaveLength(SUBSCRIPTIONS);
    for (const payment of payments) expect(fake.paymentsWithReference(payment.id)).toHaveLength(1);
    expect(fake.payments.size).toBe(SUBSCRIPTIONS);
  });
});
