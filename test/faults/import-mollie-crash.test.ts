import { MollieFake } from '../../fakes/mollie/fake';
import { serveOverHttps } from '../../fakes/mollie/https';
import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { TEST_MOLLIE_KEY } from '../support/mollieNock';
import { billingProcessEnv, problemsIn } from '../support/billingProcesses';
import { TEST_DATABASES } from '../support/databases';
import { customerWithMandate } from '../support/mollieSubscriptions';
import { runCliProcess, startCliProcess } from '../support/serviceProcess';
import { createTestApp, type TestApp } from '../support/testApp';
import { expectCleanAuditByProcess } from '../support/audit';

// Child processes import over HTTPS, one is killed and a third runs; on a busy 2-core CI machine that takes a while.
jest.setTimeout(120_000);

const SUBSCRIPTIONS = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A Mollie fake served over HTTPS with SUBSCRIPTIONS customers, each with a mandate and a monthly subscription (charges 3 of 12 on). */
async function mollieWithSubscriptions(): Promise<{ fake: MollieFake; server: { apiUrl: string; close(): Promise<void> } }> {
  const fake = new MollieFake('https://127.0.0.1');
  for (let index = 0; index < SUBSCRIPTIONS; index += 1) {
    const { customerId, mandateId } = await customerWithMandate(fake);
    // The child runs on the real clock: these dates lie ahead of it.
    fake.seedSubscription(customerId, {
      amount: 1000 + index,
      interval: '1 month',
      startDate: '2030-01-05',
      nextPaymentDate: '2030-03-05',
      times: 12,
      timesRemaining: 10,
      description: `Magazine ${index}`,
      mandateId,
    });
  }
  return { fake, server: await serveOverHttps(fake) };
}

/**
 * `cli import mollie-subscriptions` as an operator runs it, killed with SIGKILL halfway (between any two
 * writes or calls to Mollie: after ours is made and before Mollie's is canceled, say), then run again:
 * the end state is that of one uninterrupted run, here and at Mollie.
 */
describe.each(TEST_DATABASES)("an import of Mollie's subscriptions killed halfway, on %s", (kind) => {
  let t: TestApp;
  const servers: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  // The fakes serve over TLS that only the service's processes are told to accept: the audit runs as one.
  afterEach(() => expectCleanAuditByProcess(billingProcessEnv(t, 1)));
  afterAll(async () => {
    for (const server of servers) await server.close();
    await t.close();
  });

  const countOf = async (table: string, accountId: string) =>
    Number((await t.ctx.db(table).where({ account_id: accountId }).count({ n: '*' }))[0]?.n);
  const accountOn = async (apiUrl: string) => {
    const name = `Mollie import ${randomBase62(8)}`;
    const { accountId } = await t.newAccount(name);
    await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false, mollieApiUrl: apiUrl });
    return { name, accountId };
  };
  /** What the import made in an account and left at its Mollie, without ids. */
  const endState = async (accountId: string, fake: MollieFake) => {
    const subscriptions = await t.ctx.db('subscriptions').where({ account_id: accountId }).orderBy('next_amount');
    for (const row of subscriptions) {
      // Ours charges on the mandate Mollie's charged on.
      expect(fake.subscriptions.get(row.source_id)?.mandateId).toBe(row.provider_mandate_id);
    }
    return {
      customers: await countOf('customers', accountId),
      mandates: await countOf('mandates', accountId),
      subscriptions: subscriptions.map((row) => ({
        status: row.status,
        next_charge_number: row.next_charge_number,
        next_amount: row.next_amount,
        handover_pending: Boolean(row.handover_pending),
      })),
      atMollie: [...fake.subscriptions.values()].map((subscription) => subscription.status),
      customersAtMollie: fake.customers.size,
      paymentsAtMollie: fake.payments.size,
    };
  };

  it('When the CLI is killed halfway through and run again, then each subscription is taken over once, as in a clean run', async () => {
    const env = billingProcessEnv(t, 1);
    const clean = await mollieWithSubscriptions();
    servers.push(clean.server);
    const cleanAccount = await accountOn(clean.server.apiUrl);
    const cleanRun = await runCliProcess(env, ['import', 'mollie-subscriptions', '--account', cleanAccount.name]);
    expect(problemsIn(cleanRun.stderr)).toEqual([]);
    expect(cleanRun.code).toBe(0);

    const crashed = await mollieWithSubscriptions();
    servers.push(crashed.server);
    const { name, accountId } = await accountOn(crashed.server.apiUrl);
    const running = startCliProcess(env, ['import', 'mollie-subscriptions', '--account', name]);
    for (let waited = 0; (await countOf('subscriptions', accountId)) < 10; waited += 20) {
      if (waited > 60_000) throw new Error(`the import made no 10 subscriptions in a minute: ${(await running.exited).stderr}`);
      await sleep(20);
    }
    await running.crash();
    const madeBeforeKill = await countOf('subscriptions', accountId);
    expect(madeBeforeKill).toBeLessThan(SUBSCRIPTIONS);
    expect([...crashed.fake.subscriptions.values()].filter((subscription) => subscription.status === 'active').length).toBeGreaterThan(0);

    const again = await runCliProcess(env, ['import', 'mollie-subscriptions', '--account', name]);
    expect(problemsIn(again.stderr)).toEqual([]);
    expect(again.code).toBe(0);
    const summary = again.stdout.trim().split('\n').pop() ?? '';
    const [, created, skipped] = /(\d+) created, (\d+) skipped, 0 failed$/.exec(summary) ?? [];
    expect(Number(created) + Number(skipped)).toBe(SUBSCRIPTIONS);
    expect(Number(skipped)).toBeGreaterThanOrEqual(madeBeforeKill);

    const state = await endState(accountId, crashed.fake);
    expect(state).toEqual(await endState(cleanAccount.accountId, clean.fake));
    expect(state).toMatchObject({
      customers: SUBSCRIPTIONS,
      mandates: SUBSCRIPTIONS,
      customersAtMollie: SUBSCRIPTIONS,
      paymentsAtMollie: 0,
    });
    expect(state.subscriptions).toHaveLength(SUBSCRIPTIONS);
    expect(state.subscriptions[0]).toEqual({ status: 'active', next_charge_number: 3, next_amount: 1000, handover_pending: false });
    expect(new Set(state.atMollie)).toEqual(new Set(['canceled']));
    // Each was canceled at Mollie (a cancel the kill cut short is sent again to the same one, which Mollie answers as canceled).
    const cancels = crashed.fake.requests.filter((request) => request.method === 'DELETE').map((request) => request.path);
    expect(new Set(cancels).size).toBe(SUBSCRIPTIONS);
  });

  it.each([
    ['before the cancel reached Mollie', 'stalled'],
    ['after Mollie canceled, before its answer came back', 'held'],
  ] as const)(
    'When the CLI is killed %s, then our recorded cancel request proves the cancel ours: the next run releases ours once, holds nothing',
    async (_when, fault) => {
      const env = billingProcessEnv(t, 1);
      const fake = new MollieFake('https://127.0.0.1');
      const { customerId, mandateId } = await customerWithMandate(fake);
      const sourceId = fake.seedSubscription(customerId, {
        amount: 1250,
        interval: '1 month',
        startDate: '2030-01-05',
        nextPaymentDate: '2030-03-05',
        description: 'Coffee',
        mandateId,
      });
      const server = await serveOverHttps(fake);
      servers.push(server);
      const { name, accountId } = await accountOn(server.apiUrl);
      // Nothing listens there: the rows are what this test reads.
      await t.ctx.db('accounts').where({ id: accountId }).update({ events_url: 'http://127.0.0.1:9/events' });
      if (fault === 'stalled') fake.stallRequests('DELETE', /\/subscriptions\//, 1);
      else fake.holdAnswers('DELETE', /\/subscriptions\//, 1);

      const running = startCliProcess(env, ['import', 'mollie-subscriptions', '--account', name]);
      await fake.untilHeld(1);
      // Our request was committed before the call went out.
      const recorded = await t.ctx.db('import_handovers').where({ account_id: accountId, source_id: sourceId }).first();
      expect(recorded?.cancel_requested_at).toBeTruthy();
      await running.crash();
      fake.releaseHeld();
      expect(fake.subscriptions.get(sourceId)?.status).toBe(fault === 'stalled' ? 'active' : 'canceled');
      const ours = () => t.ctx.db('subscriptions').where({ account_id: accountId, source_id: sourceId }).first();
      expect((await ours()).handover_pending).toBeTruthy();

      const again = await runCliProcess(env, ['import', 'mollie-subscriptions', '--account', name]);
      expect(problemsIn(again.stderr)).toEqual([]);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('canceled at Mollie; ours starts 2030-03-05');
      expect((await ours()).handover_pending).toBeFalsy();
      expect(fake.subscriptions.get(sourceId)?.status).toBe('canceled');
      expect(await t.ctx.db('outbound_events').where({ account_id: accountId, event: 'import.handover_held' })).toEqual([]);
      // Done once at Mollie: a stalled cancel was never done there, and sent again; a done one is not sent again.
      const deletes = fake.requests.filter((request) => request.method === 'DELETE');
      expect(deletes).toHaveLength(fault === 'stalled' ? 2 : 1);
      expect(await countOf('subscriptions', accountId)).toBe(1);
    },
  );
});
