import type { MollieFake } from '../../fakes/mollie/fake';
import type { Account } from '../../src/modules/accounts/account';
import { handOverProviderSubscription as handOverMollieSubscription } from '../../src/modules/imports/providerHandOver';
import type { SubscriptionRow } from '../../src/modules/subscriptions/repository';
import { formatDate } from '../../src/time';
import { cli } from '../cli/runInMemory';
import { billAsOf } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { accountAtMollieFake, type MollieAccount } from '../support/mollieAccount';
import { customerWithMandate } from '../support/mollieSubscriptions';
import { useTestApp } from '../support/testApp';

const TODAY = '2026-11-21';

interface RowAnswer {
  source_id: string;
  outcome: string;
  field: string | null;
  reason: string | null;
  subscription_id: string | null;
}

const monthly = (fields: { startDate: string; nextPaymentDate?: string; times?: number | null; timesRemaining?: number | null }) => ({
  amount: 995,
  interval: '1 month',
  description: 'Magazine',
  ...fields,
});

describe.each(TEST_DATABASES)("imports of Mollie's own subscriptions (the Mollie fake), on %s", (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let mollie: MollieAccount;
  let fake: MollieFake;

  beforeEach(async () => {
    t.clock.set(`${TODAY}T10:00:00Z`);
    mollie = await accountAtMollieFake(t, 'Mollie import');
    fake = mollie.fake;
  });
  afterEach(() => mollie.stop());

  const postImport = (dryRun = false) => t.as(mollie.token).post('/api/v2/imports', { source: 'mollie-subscriptions', dry_run: dryRun });
  const rowsOf = (body: { rows: { data: RowAnswer[] } }) => new Map(body.rows.data.map((row) => [row.source_id, row]));
  const ours = (sourceId: string) => t.ctx.db('subscriptions').where({ account_id: mollie.accountId, source_id: sourceId }).first();
  const countOf = async (table: string) => Number((await t.ctx.db(table).where({ account_id: mollie.accountId }).count({ n: '*' }))[0]?.n);
  /** What the import made here and left at Mollie, without our ids. */
  const endState = async () => ({
    customers: await countOf('customers'),
    mandates: await countOf('mandates'),
    subscriptions: await t.ctx
      .db('subscriptions')
      .where({ account_id: mollie.accountId })
      .orderBy('source_id')
      .select('source_id', 'status', 'provider_mandate_id', 'next_payment_at', 'next_charge_number', 'next_amount', 'handover_pending'),
    atMollie: [...fake.subscriptions.values()].map((subscription) => `${String(subscription.id)} ${String(subscription.status)}`).sort(),
    customersAtMollie: fake.customers.size,
    paymentsAtMollie: fake.payments.size,
  });
  /** Every period of the subscription charged, at Mollie by its subscription and by ours through the service: due date per charge. */
  const periodsCharged = async (sourceId: string) => {
    const row = await ours(sourceId);
    const charges = await t.ctx
      .db('subscription_charges')
      .where({ account_id: mollie.accountId, subscription_id: row.id })
      .whereNotNull('payment_id');
    const byUs: string[] = [];
    for (const charge of charges) {
      const payment = await t.ctx.db('payments').where({ account_id: mollie.accountId, id: charge.payment_id }).first();
      // Each of our charges is one payment at Mollie, made once.
      expect(fake.paymentsWithReference(payment.id)).toHaveLength(1);
      byUs.push(formatDate(charge.due_date));
    }
    return [...(fake.subscriptionCharges.get(sourceId) ?? []), ...byUs].sort();
  };

  it(
    'When a dry run is asked for, then it lists what would be taken over and what is skipped and why, calls only read ' +
      'endpoints at Mollie and creates nothing',
    async () => {
      const anna = await customerWithMandate(fake);
      const taken = fake.seedSubscription(anna.customerId, {
        ...monthly({ startDate: '2026-09-05', nextPaymentDate: '2026-12-05', times: 12, timesRemaining: 9 }),
        mandateId: anna.mandateId,
      });
      const noMandateNamed = fake.seedSubscription(anna.customerId, {
        amount: 2000,
        interval: '14 days',
        startDate: '2026-11-28',
        description: 'Flowers',
      });
      const canceled = fake.seedSubscription(anna.customerId, { ...monthly({ startDate: '2026-01-05' }), status: 'canceled' });
      const suspended = fake.seedSubscription(anna.customerId, { ...monthly({ startDate: '2026-01-05' }), status: 'suspended' });
      const dollars = fake.seedSubscription(anna.customerId, { ...monthly({ startDate: '2026-12-05' }), currency: 'USD' });
      const unreadable = fake.seedSubscription(anna.customerId, { ...monthly({ startDate: '2027-06-01' }), interval: '1 fortnight' });
      const bare = fake.seedCustomer({ name: 'Bert' });
      const noMandate = fake.seedSubscription(bare, monthly({ startDate: '2026-12-01' }));
      const before = fake.requests.length;

      const res = await postImport(true);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        source: 'mollie-subscriptions',
        dry_run: true,
        counts: { total: 7, created: 2, skipped: 4, failed: 1 },
      });
      const rows = rowsOf(res.body);
      expect(rows.get(taken)).toMatchObject({
        outcome: 'would_create',
        reason: `9.95 EUR every month, next 2026-12-05 (charge 4 of 12); mandate ${anna.mandateId}`,
      });
      expect(rows.get(noMandateNamed)).toMatchObject({
        outcome: 'would_create',
        reason: `20.00 EUR every 14 days, next 2026-11-28 (until cancelled); mandate ${anna.mandateId}`,
      });
      expect(rows.get(canceled)).toMatchObject({ outcome: 'would_skip', reason: 'Canceled at Mollie: nothing is left to take over.' });
      expect(rows.get(suspended)?.reason).toContain('Suspended at Mollie');
      expect(rows.get(dollars)).toMatchObject({ outcome: 'would_skip', reason: expect.stringContaining('Billed in USD') });
      expect(rows.get(unreadable)).toMatchObject({ outcome: 'failed', field: 'interval' });
      expect(rows.get(noMandate)).toMatchObject({
        outcome: 'would_skip',
        reason: 'The customer has no valid mandate at Mollie for ours to charge.',
      });
      expect(fake.requests.slice(before).filter((request) => request.method !== 'GET')).toEqual([]);
      expect(await countOf('subscriptions')).toBe(0);
      expect(await countOf('customers')).toBe(0);

      const dry = await cli(t.ctx, 'import', 'mollie-subscriptions', '--account', mollie.name, '--dry-run');
      expect(dry.code).toBe(0);
      expect(dry.out).toContain(
        `${taken}: would create — 9.95 EUR every month, next 2026-12-05 (charge 4 of 12); mandate ${anna.mandateId}`,
      );
      expect(dry.out).toContain(`${canceled}: would skip — Canceled at Mollie: nothing is left to take over.`);
      expect(dry.out.at(-1)).toMatch(/^dry run imp_\w+: 7 rows: 2 would be created, 4 skipped, 1 failed$/);
      expect(fake.requests.slice(before).filter((request) => request.method !== 'GET')).toEqual([]);
      expect([...fake.subscriptions.values()].filter((subscription) => subscription.status === 'canceled')).toHaveLength(1);
    },
  );

  it(
    "When the import runs, then ours has the same mandate, amount, interval, times left and next date, Mollie's is " +
      'canceled, and a second run changes nothing',
    async () => {
      const anna = await customerWithMandate(fake);
      const taken = fake.seedSubscription(anna.customerId, {
        ...monthly({ startDate: '2026-09-05', nextPaymentDate: '2026-12-05', times: 12, timesRemaining: 9 }),
        mandateId: anna.mandateId,
      });
      const flowers = fake.seedSubscription(anna.customerId, {
        amount: 2000,
        interval: '14 days',
        startDate: '2026-11-28',
        description: 'Flowers',
      });

      const run = await cli(t.ctx, 'import', 'mollie-subscriptions', '--account', mollie.name);
      expect(run.code).toBe(0);
      expect(run.out.at(-1)).toMatch(/^import imp_\w+: 2 rows: 2 created, 0 skipped, 0 failed$/);
      expect(run.out.find((line) => line.startsWith(taken))).toContain('canceled at Mollie; ours starts 2026-12-05');
      const magazine = await t.as(mollie.token).get(`/api/v2/subscriptions/${(await ours(taken)).id}`);
      expect(magazine.body).toMatchObject({
        status: 'active',
        source: 'mollie-subscriptions',
        source_id: taken,
        provider_mandate_id: anna.mandateId,
        next_payment_at: '2026-12-05',
        rules: [{ amount: '9.95', interval: 'month', interval_amount: 1, times: 12, times_done: 3 }],
      });
      const flowersOurs = await t.as(mollie.token).get(`/api/v2/subscriptions/${(await ours(flowers)).id}`);
      expect(flowersOurs.body).toMatchObject({
        provider_mandate_id: anna.mandateId,
        next_payment_at: '2026-11-28',
        rules: [{ amount: '20.00', interval: 'day', interval_amount: 14, times: null }],
      });
      expect(fake.subscriptions.get(taken)?.status).toBe('canceled');
      expect(fake.subscriptions.get(flowers)?.status).toBe('canceled');
      expect(await countOf('customers')).toBe(1);
      const state = await endState();
      expect(state.subscriptions.every((row) => !row.handover_pending)).toBe(true);
      expect(state.customersAtMollie).toBe(1);

      const before = fake.requests.length;
      const again = await postImport();
      expect(again.body.counts).toEqual({ total: 2, created: 0, skipped: 2, failed: 0 });
      expect(again.body.rows.data.map((row: RowAnswer) => row.outcome)).toEqual(['exists', 'exists']);
      expect(await endState()).toEqual(state);
      expect(fake.requests.slice(before).filter((request) => request.method !== 'GET')).toEqual([]);

      // From its next date on, ours charges each period once; Mollie charges nothing more.
      expect(await mollie.billOn('2026-12-05')).toContain(' 2 charged'); // the magazine's, and the flowers' of 28 November
      fake.runSubscriptions('2026-12-05');
      expect(await periodsCharged(taken)).toEqual(['2026-12-05']);
      expect(await periodsCharged(flowers)).toEqual(['2026-11-28']);
    },
  );

  it(
    "When Mollie's next charge is due today, then ours starts a period later, the hand-over waits (billing plans none of " +
      "ours) until Mollie made it, then cancels Mollie's: each period charged exactly once, counted at the fake",
    async () => {
      const anna = await customerWithMandate(fake);
      const due = fake.seedSubscription(anna.customerId, {
        ...monthly({ startDate: '2026-09-21', nextPaymentDate: TODAY, times: 6, timesRemaining: 4 }),
        mandateId: anna.mandateId,
      });

      const dry = await postImport(true);
      expect(rowsOf(dry.body).get(due)?.reason).toBe(
        `9.95 EUR every month, next 2026-12-21 (charge 4 of 6); mandate ${anna.mandateId}; Mollie charges 2026-11-21 itself ` +
          "first (due today or earlier); a run after that charge cancels Mollie's",
      );

      const first = await postImport();
      expect(first.body.counts).toMatchObject({ created: 1, failed: 0 });
      expect(rowsOf(first.body).get(due)?.reason).toBe(
        `9.95 EUR every month, next 2026-12-21 (charge 4 of 6); mandate ${anna.mandateId}; hand-over waits: Mollie charges the ` +
          'period of 2026-11-21 itself (due today or earlier), ours starts 2026-12-21; run the import again once Mollie has made ' +
          'that charge, to cancel it there',
      );
      expect(fake.subscriptions.get(due)?.status).toBe('active');
      expect((await ours(due)).handover_pending).toBeTruthy();
      // While Mollie may still bill it, billing plans none of ours, even on its date.
      await billAsOf(t.ctx, '2026-12-21');
      expect(await t.ctx.db('subscription_charges').where({ account_id: mollie.accountId })).toEqual([]);

      fake.runSubscriptions(TODAY); // Mollie's daily run makes its charge 3
      t.clock.set('2026-11-22T08:00:00Z');
      const second = await postImport();
      expect(rowsOf(second.body).get(due)).toMatchObject({
        outcome: 'exists',
        reason: 'Imported before; canceled at Mollie; ours starts 2026-12-21',
      });
      expect(fake.subscriptions.get(due)?.status).toBe('canceled');
      expect((await ours(due)).handover_pending).toBeFalsy();

      for (const date of ['2026-12-21', '2027-01-21', '2027-02-21']) {
        fake.runSubscriptions(date);
        expect(await mollie.billOn(date)).toContain(' 1 charged');
      }
      expect(await mollie.billOn('2027-03-21')).toContain(' 0 charged');
      expect(await periodsCharged(due)).toEqual(['2026-11-21', '2026-12-21', '2027-01-21', '2027-02-21']);
      expect(fake.chargesOf(due)).toBe(1);
      const ended = await t.as(mollie.token).get(`/api/v2/subscriptions/${(await ours(due)).id}`);
      expect(ended.body).toMatchObject({ status: 'completed', rules: [{ times: 6, times_done: 6 }] });
    },
  );

  it(
    'When the import is run again only after Mollie charged a period ours was to charge, then ours moves past it ' +
      "before Mollie's is canceled: no period charged twice",
    async () => {
      const anna = await customerWithMandate(fake);
      const due = fake.seedSubscription(anna.customerId, {
        ...monthly({ startDate: '2026-09-21', nextPaymentDate: TODAY, times: 6, timesRemaining: 4 }),
        mandateId: anna.mandateId,
      });
      await postImport();
      fake.runSubscriptions(TODAY);
      // The merchant forgets the second run; Mollie charges December too.
      fake.runSubscriptions('2026-12-21');
      t.clock.set('2026-12-22T08:00:00Z');

      const late = await postImport();
      expect(rowsOf(late.body).get(due)?.reason).toBe(
        'Imported before; canceled at Mollie; Mollie charged up to it, so ours now starts 2027-01-21',
      );
      const row = await ours(due);
      expect(row.next_charge_number).toBe(5);
      expect(formatDate(row.next_payment_at)).toBe('2027-01-21');
      expect(row.handover_pending).toBeFalsy();
      const rules = await t.ctx.db('subscription_rules').where({ account_id: mollie.accountId, subscription_id: row.id });
      expect(rules.map((rule) => rule.times_done)).toEqual([4]);

      for (const date of ['2027-01-21', '2027-02-21']) {
        fake.runSubscriptions(date);
        expect(await mollie.billOn(date)).toContain(' 1 charged');
      }
      expect(await periodsCharged(due)).toEqual(['2026-11-21', '2026-12-21', '2027-01-21', '2027-02-21']);
      expect((await ours(due)).status).toBe('completed');
    },
  );

  it(
    'When the answer to the cancel at Mollie is lost, then the row fails on handover, ours stays pending (billing plans ' +
      'none of it), and the next run finishes the hand-over',
    async () => {
      const anna = await customerWithMandate(fake);
      const taken = fake.seedSubscription(anna.customerId, {
        ...monthly({ startDate: '2026-09-05', nextPaymentDate: '2026-12-05' }),
        mandateId: anna.mandateId,
      });
      fake.loseAnswers('DELETE', /\/subscriptions\//, 1);

      const lost = await postImport();
      expect(lost.body.counts).toMatchObject({ created: 0, failed: 1 });
      expect(rowsOf(lost.body).get(taken)).toMatchObject({ outcome: 'failed', field: 'handover' });
      expect(rowsOf(lost.body).get(taken)?.subscription_id).toBe((await ours(taken)).id);
      expect(fake.subscriptions.get(taken)?.status).toBe('canceled'); // done at Mollie, the answer lost
      expect((await ours(taken)).handover_pending).toBeTruthy();
      await billAsOf(t.ctx, '2026-12-05');
      expect(await t.ctx.db('subscription_charges').where({ account_id: mollie.accountId })).toEqual([]);

      // Our cancel request was recorded before it was sent: Mollie's canceled is ours, not the customer's.
      expect(
        await t.ctx.db('import_handovers').where({ account_id: mollie.accountId, source_id: taken }).whereNotNull('cancel_requested_at'),
      ).toHaveLength(1);
      const again = await postImport();
      expect(rowsOf(again.body).get(taken)).toMatchObject({
        outcome: 'exists',
        reason: 'Imported before; canceled at Mollie; ours starts 2026-12-05',
      });
      expect((await ours(taken)).handover_pending).toBeFalsy();
      expect(await t.ctx.db('outbound_events').where({ account_id: mollie.accountId, event: 'import.handover_held' })).toEqual([]);
      const third = await postImport();
      expect(rowsOf(third.body).get(taken)).toMatchObject({ outcome: 'exists', reason: 'Imported before.' });
      expect(fake.requests.filter((request) => request.method === 'DELETE')).toHaveLength(1);
      expect(await countOf('subscriptions')).toBe(1);
      expect(await mollie.billOn('2026-12-05')).toContain(' 1 charged');
      expect(await periodsCharged(taken)).toEqual(['2026-12-05']);
    },
  );

  it(
    'When the customer cancels the Mollie subscription while ours waits for the hand-over, then ours is held and never ' +
      'charged, the merchant is told once (import.handover_held) and every report says so',
    async () => {
      await t.ctx.db('accounts').where({ id: mollie.accountId }).update({ events_url: 'https://merchant.example/events' });
      const anna = await customerWithMandate(fake);
      const due = fake.seedSubscription(anna.customerId, {
        ...monthly({ startDate: '2026-09-21', nextPaymentDate: TODAY, times: 6, timesRemaining: 4 }),
        mandateId: anna.mandateId,
      });
      const first = await postImport();
      expect(rowsOf(first.body).get(due)?.reason).toContain('hand-over waits');

      // Mollie charges today's period, then the customer ends the subscription in the merchant's Mollie-based account page.
      fake.runSubscriptions(TODAY);
      const canceled = await fake.handle({
        method: 'DELETE',
        path: `/v2/customers/${anna.customerId}/subscriptions/${due}`,
        idempotencyKey: undefined,
        body: {},
      });
      expect(canceled).toMatchObject({ status: 200 });
      t.clock.set('2026-11-22T08:00:00Z');
      const deletesBefore = fake.requests.filter((request) => request.method === 'DELETE').length;

      const second = await postImport();
      expect(second.body.counts).toMatchObject({ created: 0, failed: 1 });
      const held = rowsOf(second.body).get(due);
      expect(held).toMatchObject({ outcome: 'failed', field: 'handover', subscription_id: (await ours(due)).id });
      expect(held?.reason).toBe(
        "Held: Mollie's subscription was canceled without our asking (by the customer, or in its dashboard) while ours waited " +
          'to take it over, so the customer ended it there: ours charges nothing. Cancel ours if the customer ended it; the ' +
          'import never starts charging it',
      );
      expect((await ours(due)).handover_pending).toBeTruthy();
      const third = await postImport();
      expect(rowsOf(third.body).get(due)).toMatchObject({ outcome: 'failed', field: 'handover', reason: held?.reason });
      expect(fake.requests.filter((request) => request.method === 'DELETE')).toHaveLength(deletesBefore);

      // Never charged by us, on any later date.
      for (const date of ['2026-12-21', '2027-01-21']) expect(await mollie.billOn(date)).toContain(' 0 charged');
      expect(await periodsCharged(due)).toEqual(['2026-11-21']);
      const events = await t.ctx
        .db('outbound_events')
        .where({ account_id: mollie.accountId, event: 'import.handover_held' })
        .pluck('payload');
      expect(events.map((payload: string) => JSON.parse(payload))).toEqual([
        {
          id: (await ours(due)).id,
          event: 'import.handover_held',
          status: 'held',
          customer_id: (await ours(due)).customer_id,
          source: 'mollie-subscriptions',
          source_id: due,
          reason: 'canceled_at_source',
        },
      ]);

      // The merchant cancels ours: the hand-over has nothing left to hold.
      expect((await t.as(mollie.token).delete(`/api/v2/subscriptions/${(await ours(due)).id}`)).status).toBeLessThan(300);
      const after = await postImport();
      expect(rowsOf(after.body).get(due)).toMatchObject({ outcome: 'exists' });
      expect(rowsOf(after.body).get(due)?.reason).toContain('ours is cancelled too');
    },
  );

  it(
    'When our cancel never reached Mollie and the customer cancels there before the next run, then ours is held, not ' +
      'released by our earlier request, and never charged',
    async () => {
      await t.ctx.db('accounts').where({ id: mollie.accountId }).update({ events_url: 'https://merchant.example/events' });
      const anna = await customerWithMandate(fake);
      const taken = fake.seedSubscription(anna.customerId, {
        ...monthly({ startDate: '2026-09-05', nextPaymentDate: '2026-12-05' }),
        mandateId: anna.mandateId,
      });
      fake.unreachable('DELETE', /\/subscriptions\//, 1);

      const first = await postImport();
      expect(rowsOf(first.body).get(taken)).toMatchObject({ outcome: 'failed', field: 'handover' });
      expect(fake.subscriptions.get(taken)?.status).toBe('active'); // our cancel was never done
      expect((await ours(taken)).handover_pending).toBeTruthy();

      // Two days later, before the merchant runs the import again, the customer ends it at Mollie.
      t.clock.set('2026-11-23T09:00:00Z');
      const canceled = await fake.handle({
        method: 'DELETE',
        path: `/v2/customers/${anna.customerId}/subscriptions/${taken}`,
        idempotencyKey: undefined,
        body: {},
      });
      expect(canceled).toMatchObject({ status: 200 });

      const again = await postImport();
      expect(rowsOf(again.body).get(taken)).toMatchObject({ outcome: 'failed', field: 'handover' });
      expect(rowsOf(again.body).get(taken)?.reason).toMatch(/^Held: /);
      expect((await ours(taken)).handover_pending).toBeTruthy();
      for (const date of ['2026-12-05', '2027-01-05']) expect(await mollie.billOn(date)).toContain(' 0 charged');
      expect(await periodsCharged(taken)).toEqual([]);
      expect(await t.ctx.db('outbound_events').where({ account_id: mollie.accountId, event: 'import.handover_held' })).toHaveLength(1);
    },
  );

  it('When the latest payment of a Mollie subscription is still under way, then it is left until it settles', async () => {
    const anna = await customerWithMandate(fake);
    const settling = fake.seedSubscription(anna.customerId, {
      ...monthly({ startDate: '2026-10-25', times: 12 }),
      mandateId: anna.mandateId,
    });
    t.clock.set('2026-10-25T08:00:00Z');
    const [payment] = fake.runSubscriptions('2026-10-25');
    t.clock.set(`${TODAY}T10:00:00Z`);

    const waiting = await postImport();
    expect(rowsOf(waiting.body).get(settling)).toMatchObject({
      outcome: 'skipped',
      reason: `Its latest payment at Mollie (${String(payment?.id)}) is still pending: left until it settles; run the import again then.`,
    });
    expect(await countOf('subscriptions')).toBe(0);
    expect(fake.subscriptions.get(settling)?.status).toBe('active');

    fake.setPaymentStatus(String(payment?.id), 'paid');
    const settled = await postImport();
    expect(rowsOf(settled.body).get(settling)).toMatchObject({
      outcome: 'created',
      reason:
        `9.95 EUR every month, next 2026-11-25 (charge 2 of 12); mandate ${anna.mandateId}; ` +
        'canceled at Mollie; ours starts 2026-11-25',
    });
  });

  it(
    'When two runs hand the same subscription over at once and one lists Mollie only after the other canceled it, then the ' +
      'cancel is ours for both: nothing is held and the merchant is not told the customer ended it',
    async () => {
      await t.ctx.db('accounts').where({ id: mollie.accountId }).update({ events_url: 'https://merchant.example/events' });
      const anna = await customerWithMandate(fake);
      const due = fake.seedSubscription(anna.customerId, {
        ...monthly({ startDate: '2026-09-21', nextPaymentDate: TODAY, times: 6, timesRemaining: 4 }),
        mandateId: anna.mandateId,
      });
      expect(rowsOf((await postImport()).body).get(due)?.reason).toContain('hand-over waits');
      fake.runSubscriptions(TODAY); // Mollie made today's charge: the next run cancels it there.
      t.clock.set('2026-11-22T08:00:00Z');

      // Run B is about to list Mollie's subscriptions when run A hands the same one over, whole (records, cancels).
      const account = (await t.ctx.db('accounts').where({ id: mollie.accountId }).first()) as Account;
      const provider = await t.ctx.providers.forAccount(account);
      const row = (await ours(due)) as SubscriptionRow;
      const candidate = { sourceId: due, customer: null, mandate: null, subscription: null };
      let runA: Awaited<ReturnType<typeof handOverMollieSubscription>> | undefined;
      const listedAfterA = Object.assign(Object.create(provider) as typeof provider, {
        listSubscriptions: async (customerId: string) => {
          runA ??= await handOverMollieSubscription(t.ctx, account, provider, candidate, row);
          return provider.listSubscriptions(customerId);
        },
      });
      const runB = await handOverMollieSubscription(t.ctx, account, listedAfterA, candidate, row);

      expect(runA).toMatchObject({ done: true, note: expect.stringContaining('canceled at Mollie') });
      expect(runB).toEqual({ done: true, note: expect.stringContaining('canceled at Mollie') });
      expect(fake.subscriptions.get(due)?.status).toBe('canceled');
      expect(fake.requests.filter((request) => request.method === 'DELETE')).toHaveLength(1);
      expect(await t.ctx.db('import_handovers').where({ account_id: mollie.accountId, source_id: due }).first()).toMatchObject({
        cancel_requested_at: expect.anything(),
        held_at: null,
      });
      expect(await t.ctx.db('outbound_events').where({ account_id: mollie.accountId, event: 'import.handover_held' })).toEqual([]);
    },
  );
});
