import { acquireLease } from '../../src/jobs/lease';
import { allJobs } from '../../src/jobs';
import { reconcilePaymentsJob } from '../../src/jobs/reconcilePayments';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const MINUTE = 60_000;

describe.each(TEST_DATABASES)('cli jobs on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let providerCustomerId: string;

  beforeAll(async () => {
    ({ token } = await t.newAccount());
    const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Piet', last_name: 'Bakker', email: 'piet@example.nl' });
    providerCustomerId = customer.body.provider_customer_id;
  });

  /** An iDEAL payment the payer paid whose webhook never arrived, now past its expiry. */
  async function lostWebhookPayment(): Promise<string> {
    const res = await t.as(token).post('/api/v2/payments', {
      amount: 12.5,
      currency: 'EUR',
      provider_customer_id: providerCustomerId,
      description: 'Order 1001',
      redirect_url: 'https://shop.example/thanks',
      method: 'ideal',
    });
    await t.ctx.db('sandbox_payments').where({ id: res.body.provider_payment_id }).update({ status: 'paid' });
    t.clock.advance(30 * MINUTE);
    return res.body.id;
  }

  const statusOf = async (id: string) => (await t.as(token).get(`/api/v2/payments/${id}`)).body.status;

  it('When `reconcile` runs, then it reconciles due payments once and prints one summary line', async () => {
    const id = await lostWebhookPayment();
    const result = await cli(t.ctx, 'reconcile');
    expect(result.code).toBe(0);
    expect(result.err).toEqual([]);
    expect(result.out).toHaveLength(1);
    expect(result.out[0]).toMatch(/^reconcile-payments: 1 processed, 0 failed in \d+\.\d s$/);
    expect(await statusOf(id)).toBe('paid');
    expect(await t.ctx.db('job_leases').where({ name: 'reconcile-payments' }).first('owner')).toEqual({ owner: null });
  });

  it('When another instance holds the lease, then `reconcile` says so and changes nothing', async () => {
    const id = await lostWebhookPayment();
    expect(await acquireLease(t.ctx, 'reconcile-payments', 'other-instance', 300)).not.toBeNull();
    expect(await cli(t.ctx, 'reconcile')).toEqual({
      code: 0,
      out: ['reconcile-payments: not run, it is running elsewhere right now (its lease is held)'],
      err: [],
    });
    expect(await statusOf(id)).toBe('open');

    // Once that instance's lease has expired (in database time: the row's expiry is in the past), the command takes over.
    await t.ctx.db('job_leases').where({ name: 'reconcile-payments' }).update({ expires_at: '2000-01-01 00:00:00' });
    expect((await cli(t.ctx, 'reconcile')).out[0]).toMatch(/^reconcile-payments: 1 processed, 0 failed in /);
    expect(await statusOf(id)).toBe('paid');
  });

  it('When `jobs list` runs, then it prints each job with its schedule and description', async () => {
    const result = await cli(t.ctx, 'jobs', 'list');
    expect(result.code).toBe(0);
    const scheduleOf = (job: (typeof allJobs)[number]) => {
      const timing = job.timing?.(t.ctx.config);
      return timing ? `${timing.schedule} ${timing.timezone}` : job.schedule;
    };
    expect(result.out).toEqual(allJobs.map((job) => `${job.name}  ${scheduleOf(job)}  ${job.description}`));
    expect(result.out).toContain(
      'reconcile-payments  */10 * * * *  Fetches from the provider the payments of given-up webhook calls and those still open or ' +
        'pending past their expiry',
    );
  });

  it('When `jobs run <name>` names a job, then it runs that job once', async () => {
    const id = await lostWebhookPayment();
    const result = await cli(t.ctx, 'jobs', 'run', 'reconcile-payments');
    expect(result.code).toBe(0);
    expect(result.out[0]).toMatch(/^reconcile-payments: 1 processed, 0 failed in /);
    expect(await statusOf(id)).toBe('paid');
  });

  it('When the job fails, then the command prints one error line, exits with 1 and gives the lease back', async () => {
    const failing = jest.spyOn(reconcilePaymentsJob, 'run').mockRejectedValueOnce(new Error('database went away'));
    try {
      expect(await cli(t.ctx, 'jobs', 'run', 'reconcile-payments')).toEqual({
        code: 1,
        out: [],
        err: ['error: job reconcile-payments failed: database went away'],
      });
    } finally {
      failing.mockRestore();
    }
    expect(await t.ctx.db('job_leases').where({ name: 'reconcile-payments' }).first('owner')).toEqual({ owner: null });
  });

  it('When `jobs run` names no known job, then it prints one error line and exits with 1', async () => {
    expect(await cli(t.ctx, 'jobs', 'run', 'nope')).toEqual({
      code: 1,
      out: [],
      err: ['error: No job named "nope"; `jobs list` shows them'],
    });
  });
});
