import { validate } from 'node-cron';
import { purgeExpiredPortalSessions, purgePortalSessionsJob } from '../../src/jobs/purgePortalSessions';
import { TEST_DATABASES } from '../support/databases';
import { openPortal } from '../support/portal';
import { useTestApp } from '../support/testApp';

const HOUR_MS = 60 * 60 * 1000;

describe.each(TEST_DATABASES)('purge-portal-sessions job on %s', (kind) => {
  const t = useTestApp(kind);
  const running = () => new AbortController().signal;

  const rowsOf = async (table: 'portal_tokens' | 'portal_sessions', customerId: string) =>
    (await t.ctx.db(table).where({ customer_id: customerId }).count<{ n: number }[]>({ n: '*' }))[0]?.n;

  const allRows = async () => {
    let total = 0;
    for (const table of ['portal_tokens', 'portal_sessions'])
      total += Number((await t.ctx.db(table).count<{ n: number }[]>({ n: '*' }))[0]?.n);
    return total;
  };

  async function customerOf(token: string) {
    const created = await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' });
    expect(created.status).toBe(201);
    return created.body.id as string;
  }

  it('When links and sessions are a day past their expiry, then they are deleted; younger ones stay and still work', async () => {
    const { token } = await t.newAccount();
    const old = await customerOf(token);
    await openPortal(t, token, old);
    // A session lasts 8 hours at most: a day after that, both its link and the session are gone.
    t.clock.advance(8 * HOUR_MS + 24 * HOUR_MS + 1000);
    const young = await customerOf(token);
    const portal = await openPortal(t, token, young);

    const result = await purgePortalSessionsJob.run(t.ctx, running());

    expect(result).toEqual({ processed: 2, failed: 0 });
    expect(Number(await rowsOf('portal_tokens', old))).toBe(0);
    expect(Number(await rowsOf('portal_sessions', old))).toBe(0);
    expect(Number(await rowsOf('portal_tokens', young))).toBe(1);
    expect(Number(await rowsOf('portal_sessions', young))).toBe(1);
    const overview = await portal.agent.get('/portal/');
    expect(overview.status).toBe(200);
  });

  it('When a link expired less than a day ago, then it is kept', async () => {
    const { token } = await t.newAccount();
    const customer = await customerOf(token);
    await t.as(token).post(`/api/v2/customers/${customer}/portal-sessions`, {});
    t.clock.advance(HOUR_MS + 23 * HOUR_MS - 1000);

    expect(await purgeExpiredPortalSessions(t.ctx.db, t.clock.now(), running())).toBe(0);
    expect(Number(await rowsOf('portal_tokens', customer))).toBe(1);
  });

  it('When more rows are due than fit in one batch, then every batch is deleted; a stopped run deletes nothing', async () => {
    const { token } = await t.newAccount();
    const customer = await customerOf(token);
    for (let i = 0; i < 5; i += 1) await t.as(token).post(`/api/v2/customers/${customer}/portal-sessions`, {});
    t.clock.advance(26 * HOUR_MS);
    const stopped = new AbortController();
    stopped.abort();

    expect(await purgeExpiredPortalSessions(t.ctx.db, t.clock.now(), stopped.signal, 2)).toBe(0);
    expect(Number(await rowsOf('portal_tokens', customer))).toBe(5);
    // Earlier tests' rows are due too by now: the answer counts every row the run deleted.
    const before = await allRows();
    const purged = await purgeExpiredPortalSessions(t.ctx.db, t.clock.now(), running(), 2);
    expect(purged).toBeGreaterThanOrEqual(5);
    expect(await allRows()).toBe(before - purged);
    expect(Number(await rowsOf('portal_tokens', customer))).toBe(0);
  });

  it('When the job is scheduled, then its cron expression is valid and its name is stable', () => {
    expect(purgePortalSessionsJob.name).toBe('purge-portal-sessions');
    expect(validate(purgePortalSessionsJob.schedule)).toBe(true);
  });
});
