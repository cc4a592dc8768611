import type { Knex } from 'knex';
import nock from 'nock';
import { runBilling } from '../../src/modules/billing/run';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveWithNock } from '../../fakes/mollie/nock';
import { cli } from '../cli/runInMemory';
import { billableAccountAtFake } from '../support/billingProcesses';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

/** Rows the blocking transaction writes first: InnoDB rolls back the lighter side of a deadlock, so the service's is picked. */
const BLOCKER_WEIGHT = 50;
const MERCHANT = 'https://merchant.example';

async function deadlocksSoFar(db: Knex): Promise<number> {
  const [rows] = (await db.raw("SHOW GLOBAL STATUS LIKE 'Innodb_deadlocks'")) as [Array<{ Value: string }>];
  return Number(rows[0]?.Value ?? Number.NaN);
}

/** Resolves once a transaction on this test's database waits for a lock in a statement that starts with `statement`. */
async function untilWaiting(db: Knex, statement: string): Promise<void> {
  for (let polls = 0; polls < 80; polls += 1) {
    const [rows] = (await db.raw(
      `SELECT trx.trx_query FROM information_schema.innodb_trx trx
         JOIN information_schema.processlist process ON process.id = trx.trx_mysql_thread_id
        WHERE trx.trx_state = 'LOCK WAIT' AND process.db = DATABASE() AND trx.trx_query LIKE ?`,
      [`${statement}%`],
    )) as [unknown[]];
    if (rows.length > 0) return;
    // InnoDB refreshes this table only when it was not read for 100 ms: read more often, it never changes.
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no transaction came to wait at: ${statement}`);
}

/**
 * On MySQL any write may be picked as the victim of a deadlock, rolled back whole: InnoDB asks the
 * application to run it again. A charge's payment row and the transaction that records its provider's
 * answer (with the charge itself) are written again then, so the charge is made, and recorded, once
 * and at once, instead of failing until the next run. Each test makes a real deadlock, from a second
 * connection: it holds a row the service's write must wait for, then waits for a row that write holds.
 * SQLite has one writer at a time and never deadlocks.
 */
const onMySql = TEST_DATABASES.includes('mysql') ? describe : describe.skip;

onMySql('billing when MySQL rolls back its write to break a deadlock', () => {
  const t = useTestApp('mysql', { perTest: true });
  const afterTest: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const undo of afterTest.splice(0)) await undo();
  });

  async function billableSubscription() {
    const fake = new MollieFake('https://api.mollie.com');
    fake.now = () => t.clock.now().getTime();
    const accountId = await billableAccountAtFake(t, fake, undefined, 1);
    const served = serveWithNock(fake);
    // The merchant's endpoint takes the events, so the charge's event is counted where it is written.
    const { name } = await t.ctx.db('accounts').where({ id: accountId }).first();
    expect((await cli(t.ctx, 'accounts', 'set-webhook', '--account', name, '--url', `${MERCHANT}/events`)).code).toBe(0);
    nock(MERCHANT).persist().post('/events').reply(200);
    afterTest.push(() => served.stop()); // nock.cleanAll(): Mollie's fake and the merchant's endpoint
    t.clock.set('2026-12-01T06:00:00Z');
    const subscription = await t.ctx.db('subscriptions').where({ account_id: accountId }).first();
    return { accountId, subscriptionId: String(subscription.id), customerId: String(subscription.customer_id), fake };
  }

  /** A transaction of the test's own that outweighs any one write of the service. */
  async function heavyTransaction(): Promise<Knex.Transaction> {
    await t.ctx.db.raw('CREATE TABLE IF NOT EXISTS deadlock_weight (n INT NOT NULL) ENGINE=InnoDB');
    const blocker = await t.ctx.db.transaction();
    afterTest.unshift(async () => {
      if (!blocker.isCompleted()) await blocker.rollback();
    });
    await blocker('deadlock_weight').insert(Array.from({ length: BLOCKER_WEIGHT }, (_, n) => ({ n })));
    return blocker;
  }

  async function expectChargedOnceAndRecorded(accountId: string, subscriptionId: string, fake: MollieFake) {
    const charges = await t.ctx.db('subscription_charges').where({ account_id: accountId });
    expect(charges.map((charge) => charge.status)).toEqual(['charged']);
    const payments = await t.ctx.db('payments').where({ account_id: accountId });
    expect(payments.map((payment) => [payment.id, payment.status])).toEqual([[charges[0].payment_id, 'pending']]);
    expect(fake.payments.size).toBe(1);
    const subscription = await t.ctx.db('subscriptions').where({ id: subscriptionId }).first();
    expect(subscription.last_payment_created_at).not.toBeNull();
    const charged = await t.ctx.db('outbound_events').where({ account_id: accountId, event: 'subscription.charged' });
    expect(charged).toHaveLength(1);
    expect(t.logs.lines.filter((line) => JSON.parse(line).level === 'error')).toEqual([]);
  }

  it(
    "When the insert of a charge's payment is the victim of a deadlock, then it is written again and the charge is made once, " +
      'in the same run',
    async () => {
      const { accountId, subscriptionId, customerId, fake } = await billableSubscription();
      const blocker = await heavyTransaction();
      // The payment's row refers to its customer: its insert waits for the customer we hold.
      await blocker('customers').where({ id: customerId }).forUpdate().select('id');
      const before = await deadlocksSoFar(t.ctx.db);

      const run = runBilling(t.ctx, '2026-12-01');
      await untilWaiting(t.ctx.db, 'insert into `payments`');
      // Its new row is written but not committed: reading it under a lock waits for the insert, which waits for us.
      await blocker.raw('SELECT seq FROM payments FORCE INDEX (PRIMARY) WHERE account_id = ? LOCK IN SHARE MODE', [accountId]);
      // Counted server-wide: another test's deadlock may count too.
      expect(await deadlocksSoFar(t.ctx.db)).toBeGreaterThan(before);
      await blocker.rollback();

      expect((await run).charged).toBe(1);
      await expectChargedOnceAndRecorded(accountId, subscriptionId, fake);
    },
  );

  it(
    "When the transaction recording a charge's answer is the victim of a deadlock, then it is recorded again: the charge is " +
      'made once and recorded once, in the same run',
    async () => {
      const { accountId, subscriptionId, fake } = await billableSubscription();
      fake.holdAnswers('POST', /^\/v2\/payments/, 1);
      const run = runBilling(t.ctx, '2026-12-01');
      await fake.untilHeld();
      const blocker = await heavyTransaction();
      // Recording the charge moves its subscription: that waits for the subscription we hold.
      await blocker('subscriptions').where({ id: subscriptionId }).forUpdate().select('id');
      const before = await deadlocksSoFar(t.ctx.db);

      fake.releaseHeld();
      await untilWaiting(t.ctx.db, 'update `subscriptions`');
      // The payment's new status is written in that transaction: reading it under a lock waits for it, which waits for us.
      const [payment] = await t.ctx.db('payments').where({ account_id: accountId }).select('id');
      await blocker.raw('SELECT status FROM payments WHERE id = ? LOCK IN SHARE MODE', [payment.id]);
      // Counted server-wide: another test's deadlock may count too.
      expect(await deadlocksSoFar(t.ctx.db)).toBeGreaterThan(before);
      await blocker.rollback();

      expect((await run).charged).toBe(1);
      await expectChargedOnceAndRecorded(accountId, subscriptionId, fake);
    },
  );
});
