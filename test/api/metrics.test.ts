import request from 'supertest';
import { purgeIdempotencyKeysJob } from '../../src/jobs/purgeIdempotencyKeys';
import { runJobOnce } from '../../src/jobs/runner';
import { runBilling } from '../../src/modules/billing/run';
import { planDueCharges } from '../../src/modules/subscriptions/planning';
import { newId } from '../../src/ids';
import { subscribe } from '../support/billing';
import { seedOutboundEvent } from '../support/seed';
import { TEST_DATABASES } from '../support/databases';
import { createTestApp, type TestApp } from '../support/testApp';

/**
 * `GET /metrics` in Prometheus's text format: request durations per route pattern and status, job
 * runs and durations, charge attempts, webhook deliveries pending and dead; behind METRICS_TOKEN
 * when it is set.
 */
describe.each(TEST_DATABASES)('metrics on %s', (kind) => {
  let t: TestApp;
  afterEach(() => t.close());

  const scrape = async (headers: Record<string, string> = {}) => {
    const res = await request(t.app).get('/metrics').set(headers);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text;
  };
  const value = (text: string, series: string) => {
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it(
    'When requests, jobs and a billing run have happened, then their series are in the scrape, by route pattern and never by ' + 'id',
    async () => {
      t = await createTestApp(kind);
      const { token } = await t.newAccount();
      expect((await t.as(token).get('/api/v2/customers/cus_doesnotexist')).status).toBe(404);
      expect((await t.as(token).get('/api/v2/customers')).status).toBe(200);
      await runJobOnce(t.ctx, purgeIdempotencyKeysJob, 'test-instance');
      await subscribe(t, token, { startDate: '2026-12-01' });
      expect(await runBilling(t.ctx, '2026-12-01')).toMatchObject({ charged: 1 });

      const text = await scrape();
      expect(value(text, 'rps_http_request_duration_seconds_count{method="GET",route="/api/v2/customers/:id",status="404"}')).toBe(1);
      expect(value(text, 'rps_http_request_duration_seconds_count{method="GET",route="/api/v2/customers",status="200"}')).toBe(1);
      expect(text).not.toContain('cus_doesnotexist');
      expect(value(text, `rps_job_runs_total{job="${purgeIdempotencyKeysJob.name}",outcome="ran"}`)).toBe(1);
      expect(value(text, `rps_job_duration_seconds_count{job="${purgeIdempotencyKeysJob.name}"}`)).toBe(1);
      expect(value(text, 'rps_charge_attempts_total{outcome="charged"}')).toBe(1);
    },
  );

  it('When events wait for delivery or were given up, then the gauges count them from the outbox', async () => {
    t = await createTestApp(kind);
    const { accountId } = await t.newAccount();
    await seedOutboundEvent(t.ctx.db, accountId, { status: 'pending' });
    await seedOutboundEvent(t.ctx.db, accountId, { status: 'pending' });
    await seedOutboundEvent(t.ctx.db, accountId, { status: 'dead' });
    await seedOutboundEvent(t.ctx.db, accountId, { status: 'delivered' });
    const text = await scrape();
    expect(value(text, 'rps_webhook_deliveries{status="pending"}')).toBe(2);
    expect(value(text, 'rps_webhook_deliveries{status="dead"}')).toBe(1);
  });

  it(
    'When charges fall due, a run plans and makes them and a store syncs, then the gauges show what is left, how old, the run ' +
      'and the lag',
    async () => {
      t = await createTestApp(kind);
      const { token, accountId } = await t.newAccount();
      await subscribe(t, token, { startDate: '2026-12-01' });
      await subscribe(t, token, { startDate: '2026-12-02', email: 'bert@example.nl' });
      // 2 December, 10:00 in Amsterdam: one charge due since the 1st, one since today; no run yet.
      t.clock.set('2026-12-02T09:00:00Z');
      let text = await scrape();
      expect(value(text, 'rps_billing_due_charges{stage="unplanned"}')).toBe(2);
      expect(value(text, 'rps_billing_due_charges{stage="planned"}')).toBe(0);
      // Since 1 December 00:00 in Amsterdam (30 November, 23:00 UTC): 34 hours.
      expect(value(text, 'rps_billing_oldest_due_charge_age_seconds')).toBe(34 * 3600);
      expect(value(text, 'rps_billing_last_run_duration_seconds')).toBe(0);

      await planDueCharges(t.ctx, '2026-12-02');
      text = await scrape();
      expect(value(text, 'rps_billing_due_charges{stage="unplanned"}')).toBe(0);
      expect(value(text, 'rps_billing_due_charges{stage="planned"}')).toBe(2);
      expect(value(text, 'rps_billing_oldest_due_charge_age_seconds')).toBe(34 * 3600);

      // The clock moves a second every millisecond while the run charges both.
      const ticking = setInterval(() => t.clock.set(new Date(t.clock.now().getTime() + 1000).toISOString()), 1);
      const summary = await runBilling(t.ctx, '2026-12-02').finally(() => clearInterval(ticking));
      expect(summary.charged).toBe(2);
      const run = await t.ctx.db('billing_runs').orderBy('seq', 'desc').first();
      const took = (Date.parse(`${run.finished_at}Z`) - Date.parse(`${run.started_at}Z`)) / 1000;
      expect(run.charged).toBe(2);
      text = await scrape();
      expect(value(text, 'rps_billing_due_charges{stage="planned"}')).toBe(0);
      expect(value(text, 'rps_billing_oldest_due_charge_age_seconds')).toBe(0);
      expect(value(text, 'rps_billing_last_run_duration_seconds')).toBe(took);
      expect(took).toBeGreaterThan(0);
      expect(value(text, 'rps_billing_last_run_charges_per_second')).toBeCloseTo(2 / took, 6);

      // A store connected an hour ago whose last order sync finished 10 minutes ago; an older failed one does not count.
      const shopId = newId('shp');
      const at = (minutesAgo: number) =>
        new Date(t.clock.now().getTime() - minutesAgo * 60_000).toISOString().slice(0, 19).replace('T', ' ');
      await t.ctx.db('shops').insert({
        id: shopId,
        account_id: accountId,
        platform: 'woocommerce',
        url: 'https://shop.example',
        consumer_key: 'ck_x',
        consumer_secret_encrypted: 'x',
        webhook_secret_encrypted: 'x',
        webhooks_state: 'registered',
        status: 'connected',
        connected_at: at(60),
        created_at: at(60),
        updated_at: at(60),
      });
      expect(value(await scrape(), `rps_store_sync_lag_seconds{shop="${shopId}"}`)).toBe(3600);
      const syncRun = (status: string, minutesAgo: number) => ({
        id: newId('syn'),
        account_id: accountId,
        kind: 'orders',
        full: false,
        status,
        errors: '[]',
        heartbeat_at: at(minutesAgo),
        started_at: at(minutesAgo + 1),
        finished_at: at(minutesAgo),
      });
      await t.ctx.db('sync_runs').insert([syncRun('succeeded', 10), syncRun('failed', 5)]);
      expect(value(await scrape(), `rps_store_sync_lag_seconds{shop="${shopId}"}`)).toBe(600);
    },
  );

  it('When the outboxes hold work, then each kind’s depth is counted from its table', async () => {
    t = await createTestApp(kind);
    const { accountId } = await t.newAccount();
    await seedOutboundEvent(t.ctx.db, accountId, { status: 'pending' });
    await seedOutboundEvent(t.ctx.db, accountId, { status: 'delivered' });
    const stamp = '2026-11-21 10:00:00';
    const mail = (status: string) => ({
      id: newId('mail'),
      account_id: accountId,
      template: 'link-reminder',
      locale: 'en',
      recipient: 'anna@example.nl',
      subject: 's',
      text_body: 't',
      html_body: 'h',
      status,
      attempts: 0,
      created_at: stamp,
      updated_at: stamp,
    });
    await t.ctx.db('outgoing_mails').insert([mail('queued'), mail('queued'), mail('sent')]);
    const text = await scrape();
    expect(value(text, 'rps_outbox_depth{kind="events"}')).toBe(1);
    expect(value(text, 'rps_outbox_depth{kind="mails"}')).toBe(2);
    for (const kind of ['store_tasks', 'bookkeeping', 'provider_webhooks']) expect(value(text, `rps_outbox_depth{kind="${kind}"}`)).toBe(0);
  });

  it('When METRICS_TOKEN is set, then only a request bearing it is answered', async () => {
    t = await createTestApp(kind, { env: { METRICS_TOKEN: 'metrics-token-0123456789' } });
    expect((await request(t.app).get('/metrics')).status).toBe(401);
    expect((await request(t.app).get('/metrics').set('Authorization', 'Bearer metrics-token-wrong')).status).toBe(401);
    const text = await scrape({ Authorization: 'Bearer metrics-token-0123456789' });
    expect(text).toContain('# TYPE rps_http_request_duration_seconds histogram');
  });
});
