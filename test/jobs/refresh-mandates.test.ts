import { refreshMandates } from '../../src/jobs/refreshMandates';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { subscribe } from '../support/billing';
import { accountAtMollieFake, type MollieAccount } from '../support/mollieAccount';
import { useTestApp } from '../support/testApp';

/**
 * The `refresh-mandates` job asks Mollie about pending mandates and valid ones that subscriptions are
 * charged on, oldest checked first and a bounded number per run, and records what it learns: a
 * mandate revoked or invalid at Mollie is noticed before its next charge, which is then not
 * attempted. Against a Mollie fake; the clock starts at 2026-11-21 10:00 UTC.
 */
describe.each(TEST_DATABASES)('the refresh-mandates job on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let mollie: MollieAccount;

  beforeEach(async () => {
    mollie = await accountAtMollieFake(t, 'Mandates');
  });
  afterEach(async () => {
    mollie.stop();
  });

  /** A customer with a direct-debit mandate made through the API (valid at Mollie at once), used by nothing. */
  async function unusedMandate(): Promise<string> {
    const customer = await mollie.newCustomer();
    const mandate = await t
      .as(mollie.token)
      .post(`/api/v2/customers/${customer.id}/mandates`, { consumer_name: 'A. de Vries', consumer_account: 'NL91ABNA0417164300' });
    expect(mandate.status).toBe(201);
    return mandate.body.id as string;
  }

  const mandateRow = (id: string) => t.ctx.db('mandates').where({ id }).first();
  const askedAbout = (mandateId: string) =>
    mollie.fake.requests.filter((request) => request.method === 'GET' && request.path.includes(`/mandates/${mandateId}`)).length;
  const paymentRequests = () =>
    mollie.fake.requests.filter((request) => request.method === 'POST' && request.path.startsWith('/v2/payments')).length;

  it.each([
    ['revoked (invalid) at Mollie', (mandateId: string) => mollie.fake.setMandateStatus(mandateId, 'invalid')],
    ['gone at Mollie (404)', (mandateId: string) => void mollie.fake.mandates.delete(mandateId)],
  ])(
    'When a mandate in use is %s, then the job marks it invalid with revoked_at and its next charge is not attempted: a follow-up ' +
      'asks to pay by link',
    async (_case, endAtMollie) => {
      const { mandateId, subscriptionId } = await subscribe(t, mollie.token);
      endAtMollie(mandateId);

      const run = await cli(t.ctx, 'jobs', 'run', 'refresh-mandates');
      expect(run.out).toEqual([expect.stringMatching(/^refresh-mandates: 1 processed, 0 failed/)]);
      expect(await mandateRow(mandateId)).toMatchObject({
        status: 'invalid',
        revoked_at: expect.anything(),
        checked_at: expect.anything(),
      });
      const warning = t.logs.lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.message === 'mandate no longer valid at the provider; nothing is charged on it any more');
      expect(warning).toMatchObject({ mandateId });
      expect(JSON.stringify(warning)).not.toContain('NL91ABNA');

      expect(await mollie.billOn('2026-12-01')).toContain('0 charged, 0 skipped, 1 not charged');
      expect(paymentRequests()).toBe(0);
      const followUps = (await t.as(mollie.token).get('/api/v2/follow-ups')).body.data;
      expect(followUps).toEqual([
        expect.objectContaining({
          type: 'link',
          reason_code: 'mandate_invalid',
          subscription: expect.objectContaining({ id: subscriptionId }),
        }),
      ]);
      // An invalid mandate is not asked about again.
      await cli(t.ctx, 'jobs', 'run', 'refresh-mandates');
      expect(askedAbout(mandateId)).toBe(1);
    },
  );

  it(
    'When the job runs, then it asks about pending mandates and valid ones in use only, a bounded batch per run, the never or ' +
      'longest unchecked first',
    async () => {
      const inUse = await subscribe(t, mollie.token);
      const cancelled = await subscribe(t, mollie.token);
      expect((await t.as(mollie.token).delete(`/api/v2/subscriptions/${cancelled.subscriptionId}`)).status).toBe(200);
      const unusedId = await unusedMandate();
      const pendingCustomer = await mollie.newCustomer();
      const link = await t
        .as(mollie.token)
        .post('/api/v2/links', { type: 'mandate', description: 'Authorise', customer_id: pendingCustomer.id });
      const pendingId = await mollie.payLink(link.body.id, 'pending');
      mollie.fake.requests.length = 0; // from here on, only what the job asks

      const signal = new AbortController().signal;
      expect(await refreshMandates(t.ctx, signal, 1)).toEqual({ processed: 1, failed: 0 });
      t.clock.advance(60_000);
      expect(await refreshMandates(t.ctx, signal, 1)).toEqual({ processed: 1, failed: 0 });
      expect([askedAbout(inUse.mandateId), askedAbout(pendingId)]).toEqual([1, 1]);
      // Both were asked once; the next run takes the one asked longest ago.
      const [first] = (await t.ctx.db('mandates').whereIn('id', [inUse.mandateId, pendingId]).orderBy('checked_at')).map(
        (row) => row.id as string,
      );
      t.clock.advance(60_000);
      await refreshMandates(t.ctx, signal, 1);
      expect(askedAbout(first as string)).toBe(2);
      expect([askedAbout(cancelled.mandateId), askedAbout(unusedId)]).toEqual([0, 0]);
    },
  );

  it(
    'When Mollie cannot be reached about one mandate, then that one counts as failed, the others are refreshed, and it waits at the ' +
      'back of the queue',
    async () => {
      const unreachable = await subscribe(t, mollie.token);
      const revoked = await subscribe(t, mollie.token);
      mollie.fake.setMandateStatus(revoked.mandateId, 'invalid');
      mollie.fake.unreachable('GET', new RegExp(`/mandates/${unreachable.mandateId}$`), 1);

      const run = await cli(t.ctx, 'jobs', 'run', 'refresh-mandates');
      expect(run.out).toEqual([expect.stringMatching(/^refresh-mandates: 1 processed, 1 failed/)]);
      expect(await mandateRow(revoked.mandateId)).toMatchObject({ status: 'invalid' });
      expect(await mandateRow(unreachable.mandateId)).toMatchObject({ status: 'valid', revoked_at: null, checked_at: expect.anything() });
    },
  );
});
