import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { billAndSettle } from '../support/invoices';

describe.each(TEST_DATABASES)('stored ledger audits, the daily job and the API on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  it('When a run is asked for, then 202 at once and the report is kept; the daily job reports a break, tells and counts it', async () => {
    const { token, accountId } = await t.newAccount(`Audited ${Math.random().toString(36).slice(2, 8)}`);
    await t.ctx.db('accounts').where({ id: accountId }).update({ events_url: 'https://merchant.example/events' });
    await subscribe(t, token);
    await billAndSettle(t, accountId, '2026-12-01');
    expect((await t.as(token).get('/api/v2/audit')).status).toBe(404);

    const asked = await t.as(token).post('/api/v2/audit', {});
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual(expect.objectContaining({ status: 'running', requested_via: 'api', report: null }));
    await t.ctx.background.idle();
    const done = await t.as(token).get(`/api/v2/audit/${asked.body.id}`);
    expect(done.body).toEqual(
      expect.objectContaining({ status: 'done', violations: 0, report: expect.objectContaining({ violations: [] }) }),
    );
    expect((await t.as(token).get('/api/v2/audit')).body.id).toBe(asked.body.id);

    // A mandate revoked under an active subscription: the daily job finds it.
    const subscription = await t.ctx.db('subscriptions').where({ account_id: accountId }).first();
    await t.ctx.db('mandates').where({ id: subscription.provider_mandate_id }).update({ revoked_at: '2026-12-01 09:00:00' });
    t.clock.advance(60 * 60 * 1000);
    const run = await cli(t.ctx, 'jobs', 'run', 'audit-ledger');
    expect(run.code).toBe(0);
    const latest = (await t.as(token).get('/api/v2/audit')).body;
    expect(latest).toEqual(expect.objectContaining({ status: 'done', requested_via: 'job', violations: 1 }));
    expect(latest.report.violations).toEqual([
      expect.objectContaining({ invariant: 'mandate_revoked_in_use', rows: [subscription.provider_mandate_id, subscription.id] }),
    ]);
    const events = await t.ctx.db('outbound_events').where({ account_id: accountId, event: 'audit.failed' });
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0].payload)).toEqual({
      id: latest.id,
      event: 'audit.failed',
      violations: 1,
      invariants: ['mandate_revoked_in_use'],
    });
    expect(await t.ctx.metrics.registry.getSingleMetricAsString('rps_audit_violations')).toContain('rps_audit_violations 1');

    // Another account sees none of it.
    const other = await t.newAccount();
    expect((await t.as(other.token).get('/api/v2/audit')).status).toBe(404);
    expect((await t.as(other.token).get(`/api/v2/audit/${latest.id}`)).status).toBe(404);
  });
});
