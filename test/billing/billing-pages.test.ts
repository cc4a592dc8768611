import type { Knex } from 'knex';
import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { runBilling } from '../../src/modules/billing/run';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveWithNock } from '../../fakes/mollie/nock';
import { TEST_MOLLIE_KEY } from '../support/mollieNock';
import { seedBillableSubscriptions } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

/** Planning reads due subscriptions this many at a time (planning.ts PAGE). */
const PAGE = 200;

interface Answered {
  sql: string;
  bindings: readonly unknown[];
  rows: number;
}

/** Every statement the database answered while `work` ran, with the number of rows each answer held. */
async function answersDuring(db: Knex, work: () => Promise<unknown>): Promise<Answered[]> {
  const answered: Answered[] = [];
  const listen = (response: unknown, query: { sql: string; bindings?: readonly unknown[] }) => {
    answered.push({ sql: query.sql, bindings: query.bindings ?? [], rows: Array.isArray(response) ? response.length : 0 });
  };
  db.on('query-response', listen);
  try {
    await work();
  } finally {
    db.removeListener('query-response', listen);
  }
  return answered;
}

/**
 * The billing run's memory does not grow with the number of due subscriptions: it reads them in
 * pages of a fixed size and claims its charges a few at a time, so no answer of the database is ever
 * larger than a page, whether 250 or 450 subscriptions are due.
 */
describe.each(TEST_DATABASES)('a billing run reads in pages on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  const afterTest: Array<() => void> = [];
  afterEach(() => afterTest.splice(0).forEach((stop) => stop()));

  it.each([250, 450])(
    'When %i subscriptions are due, then no read answers more than a page and the due set is read page by page',
    async (count) => {
      const name = `Pages ${randomBase62(8)}`;
      const { accountId } = await t.newAccount(name);
      await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
      await seedBillableSubscriptions(t.ctx.db, accountId, count);
      const fake = new MollieFake('https://api.mollie.com');
      fake.now = () => t.clock.now().getTime();
      for (const customer of await t.ctx.db('customers').where({ account_id: accountId })) {
        fake.customers.set(customer.provider_customer_id, { resource: 'customer', id: customer.provider_customer_id });
      }
      const served = serveWithNock(fake);
      afterTest.push(() => served.stop());
      t.clock.set('2026-12-01T06:00:00Z');

      let charged = 0;
      const answered = await answersDuring(t.ctx.db, async () => {
        charged = (await runBilling(t.ctx, '2026-12-01')).charged;
      });
      expect(charged).toBe(count);

      const largest = Math.max(...answered.map((answer) => answer.rows));
      expect(largest).toBeLessThanOrEqual(PAGE);
      // The due subscriptions: one query per page of PAGE (and the empty one that ends it), each limited to PAGE.
      const pages = answered.filter((answer) => /from [`"]subscriptions[`"] where .*next_charge_date/i.test(answer.sql));
      expect(pages).toHaveLength(Math.ceil(count / PAGE) + 1);
      for (const page of pages) {
        expect(page.sql).toMatch(/limit \?/i);
        expect(page.bindings[page.bindings.length - 1]).toBe(PAGE);
      }
      // The charges: claimed a few at a time, never the whole due set.
      const claims = answered.filter((answer) => /from [`"]subscription_charges[`"] where [`"]?status/i.test(answer.sql));
      expect(claims.length).toBeGreaterThan(count / PAGE);
      for (const claim of claims) expect(claim.rows).toBeLessThanOrEqual(16);
    },
  );
});
