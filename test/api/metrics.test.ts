import request from 'supertest';
import { purgeIdempotencyKeysJob } from '../../src/jobs/purgeIdempotencyKeys';
import { runJobOnce } from '../../src/jobs/runner';
import { runBilling } from '../../src/modules/billing/run';
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

  it('When METRICS_TOKEN is set, then only a request bearing it is answered', async () => {
    t = await createTestApp(kind, { env: { METRICS_TOKEN: 'metrics-token-0123456789' } });
    expect((await request(t.app).get('/metrics')).status).toBe(401);
    expect((await request(t.app).get('/metrics').set('Authorization', 'Bearer metrics-token-wrong')).status).toBe(401);
    const text = await scrape({ Authorization: 'Bearer metrics-token-0123456789' });
    expect(text).toContain('# TYPE rps_http_request_duration_seconds histogram');
  });
});
