import request from 'supertest';
import { createHash } from 'node:crypto';
import { TEST_DATABASES } from '../support/databases';
import { openPortal, type PortalBrowser } from '../support/portal';
import { seedCustomer } from '../support/seed';
import { createTestApp, useTestApp, type TestApp } from '../support/testApp';

const MINUTE = 60_000;

/** How a portal session starts, lives and ends, through HTTP. The clock stands at 2026-11-21 10:00 UTC and is moved by hand. */
describe.each(TEST_DATABASES)('portal sessions in the browser on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    ({ token, accountId } = await t.newAccount());
  });

  const newLink = async (customerId: string) => {
    const res = await t.as(token).post(`/api/v2/customers/${customerId}/portal-sessions`, {});
    expect(res.status).toBe(201);
    return new URL((res.body as { url: string }).url).pathname;
  };
  const cookieOf = (res: request.Response) =>
    ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((line) => line.startsWith('portal_session=')) ?? '';
  /** Whether the session still works: the log-in form is what a browser without one sees at /portal/. */
  const isLive = async (portal: PortalBrowser) => {
    const res = await portal.agent.get('/portal/');
    return !(res.status === 200 && res.text.includes('name="email"'));
  };

  it('When the link is opened, then a session starts: an HttpOnly, SameSite=Lax cookie for /portal, and 303 to the overview', async () => {
    const customer = await seedCustomer(t.ctx.db, accountId);
    const res = await request(t.app).get(await newLink(customer.id));
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/portal/');
    const cookie = cookieOf(res);
    expect(cookie).toMatch(/^portal_session=[A-Za-z0-9_-]{43}; Path=\/portal; HttpOnly; SameSite=Lax$/);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    // Stored as a hash only: the cookie's secret is nowhere in the table.
    const secret = cookie.slice('portal_session='.length).split(';')[0] ?? '';
    const sessions = await t.ctx.db('portal_sessions').where({ customer_id: customer.id });
    expect(sessions).toMatchObject([
      { account_id: accountId, token_hash: createHash('sha256').update(secret).digest('hex'), ended_at: null },
    ]);
    expect(JSON.stringify(sessions)).not.toContain(secret);
  });

  it('When the link is opened a second time, then it answers 410 with a way to a new link, and opens nothing', async () => {
    const customer = await seedCustomer(t.ctx.db, accountId, { locale: null });
    const link = await newLink(customer.id);
    expect((await request(t.app).get(link)).status).toBe(303);
    const again = await request(t.app).get(link).set('Accept-Language', 'nl-NL,nl;q=0.9');
    expect(again.status).toBe(410);
    expect(again.text).toContain('<html lang="nl">');
    expect(again.text).toContain('<a href="/portal">');
    expect(cookieOf(again)).toBe('');
    expect(await t.ctx.db('portal_sessions').where({ customer_id: customer.id }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });

  it.each([
    ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['a Referer of another site (no Sec-Fetch-Site)', { Referer: 'https://elsewhere.example/page' }],
    ['an Origin of another site (no Sec-Fetch-Site)', { Origin: 'https://elsewhere.example' }],
  ])(
    'When the link arrives from another site (%s), then it asks for one press, as a mailed link does; the press opens the session',
    async (_how, headers: Record<string, string>) => {
      const customer = await seedCustomer(t.ctx.db, accountId);
      const link = await newLink(customer.id);
      const shown = await request(t.app).get(link).set(headers).set('Accept-Language', 'de');
      expect(shown.status).toBe(200);
      expect(shown.text).toContain(`<form method="post" action="${link}">`);
      expect(shown.text).toContain('<html lang="de">');
      expect(cookieOf(shown)).toBe('');
      expect(await t.ctx.db('portal_tokens').where({ customer_id: customer.id }).first('used_at')).toEqual({ used_at: null });
      // The press comes from our own page; one from another site is refused and uses nothing.
      expect((await request(t.app).post(link).set(headers)).status).toBe(403);
      const pressed = await request(t.app).post(link).set('Sec-Fetch-Site', 'same-origin');
      expect([pressed.status, pressed.headers.location]).toEqual([303, '/portal/']);
      expect(cookieOf(pressed)).toMatch(/^portal_session=/);
      expect((await request(t.app).get(link).set(headers)).status).toBe(410);
    },
  );

  it.each([
    ['typed in or a bookmark (Sec-Fetch-Site: none)', { 'Sec-Fetch-Site': 'none' }],
    ['from our own site', { 'Sec-Fetch-Site': 'same-origin', Referer: 'http://rps.test/portal' }],
    ['from a site of the same registrable domain', { 'Sec-Fetch-Site': 'same-site' }],
    ['without any of those headers', {}],
  ])('When the link arrives %s, then it opens the session at once', async (_how, headers: Record<string, string>) => {
    const customer = await seedCustomer(t.ctx.db, accountId);
    const res = await request(t.app)
      .get(await newLink(customer.id))
      .set(headers);
    expect([res.status, res.headers.location]).toEqual([303, '/portal/']);
    expect(cookieOf(res)).toMatch(/^portal_session=/);
  });

  it('When the link is only looked at (HEAD), then it is not used', async () => {
    const customer = await seedCustomer(t.ctx.db, accountId);
    const link = await newLink(customer.id);
    expect((await request(t.app).head(link)).status).toBe(200);
    expect((await request(t.app).get(link)).status).toBe(303);
  });

  it('When one link is opened twice at the same moment, then exactly one session opens', async () => {
    const customer = await seedCustomer(t.ctx.db, accountId);
    const link = await newLink(customer.id);
    const answers = await Promise.all([request(t.app).get(link), request(t.app).get(link), request(t.app).post(link)]);
    expect(answers.map((res) => res.status).sort()).toEqual([303, 410, 410]);
    expect(await t.ctx.db('portal_sessions').where({ customer_id: customer.id }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });

  it('When the link is an hour old, then it no longer works (410); a minute before, it did', async () => {
    const customer = await seedCustomer(t.ctx.db, accountId);
    const [early, late] = [await newLink(customer.id), await newLink(customer.id)];
    t.clock.advance(59 * MINUTE);
    expect((await request(t.app).get(early)).status).toBe(303);
    t.clock.advance(MINUTE);
    expect((await request(t.app).get(late)).status).toBe(410);
  });

  it('When a link is unknown or malformed, then it answers 404 with a way to a new link', async () => {
    for (const path of ['/portal/session/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/portal/session/short']) {
      const res = await request(t.app).get(path);
      expect(res.status).toBe(404);
      expect(res.text).toContain('<a href="/portal">');
    }
  });

  it('When the session is idle for 30 minutes, then it has ended; activity keeps it going', async () => {
    const customer = await seedCustomer(t.ctx.db, accountId);
    const portal = await openPortal(t, token, customer.id);
    t.clock.advance(20 * MINUTE);
    expect(await isLive(portal)).toBe(true);
    t.clock.advance(29 * MINUTE);
    expect(await isLive(portal)).toBe(true);
    t.clock.advance(30 * MINUTE);
    const ended = await portal.agent.get('/portal/').set('Accept-Language', 'en');
    expect(ended.status).toBe(200);
    expect(ended.text).toContain('Your session has ended.');
    expect(cookieOf(ended)).toMatch(/^portal_session=;/);
    // Anything else of the portal sends the browser to the log-in page, saying why.
    const elsewhere = await request(t.app).get('/portal/anything').set('Cookie', `portal_session=${portal.sessionSecret}`);
    expect([elsewhere.status, elsewhere.headers.location]).toEqual([303, '/portal?session=ended']);
  });

  it('When there is no session cookie, then a portal page sends the browser to /portal', async () => {
    const res = await request(t.app).get('/portal/subscriptions');
    expect([res.status, res.headers.location]).toEqual([303, '/portal']);
    const forged = await request(t.app).post('/portal/logout').set('Cookie', 'portal_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect([forged.status, forged.headers.location]).toEqual([303, '/portal?session=ended']);
  });

  it('When a session’s POST lacks the CSRF token, carries a wrong one, or comes from another site, then it is refused 403', async () => {
    const customer = await seedCustomer(t.ctx.db, accountId);
    const portal = await openPortal(t, token, customer.id);
    expect((await portal.agent.post('/portal/logout').type('form').send({})).status).toBe(403);
    expect(
      (
        await portal.agent
          .post('/portal/logout')
          .type('form')
          .send({ _csrf: 'x'.repeat(43) })
      ).status,
    ).toBe(403);
    // Another session's token is a wrong one too.
    const other = await openPortal(t, token, customer.id);
    expect((await portal.agent.post('/portal/logout').type('form').send({ _csrf: other.csrfToken })).status).toBe(403);
    expect((await portal.post('/portal/logout').set('Sec-Fetch-Site', 'cross-site')).status).toBe(403);
    expect(await isLive(portal)).toBe(true);
    const out = await portal.post('/portal/logout').set('Sec-Fetch-Site', 'same-origin');
    expect([out.status, out.headers.location]).toEqual([303, '/portal?logged_out=1']);
    expect(cookieOf(out)).toMatch(/^portal_session=;/);
  });

  it('When the customer logs out, then the session’s cookie no longer works, even if kept', async () => {
    const customer = await seedCustomer(t.ctx.db, accountId);
    const portal = await openPortal(t, token, customer.id);
    expect((await portal.post('/portal/logout')).status).toBe(303);
    const replayed = await request(t.app).get('/portal/').set('Cookie', `portal_session=${portal.sessionSecret}`);
    expect(replayed.text).toContain('name="email"');
    expect(await t.ctx.db('portal_sessions').where({ customer_id: customer.id }).whereNull('ended_at').count({ n: '*' })).toEqual([
      { n: 0 },
    ]);
  });

  it('When a browser with a session opens a new link, then the earlier session ends and the new one is for the new customer', async () => {
    const first = await seedCustomer(t.ctx.db, accountId);
    const second = await seedCustomer(t.ctx.db, accountId);
    const portal = await openPortal(t, token, first.id);
    const res = await portal.agent.get(await newLink(second.id));
    expect(res.status).toBe(303);
    const open = await t.ctx.db('portal_sessions').whereIn('customer_id', [first.id, second.id]).whereNull('ended_at').pluck('customer_id');
    expect(open).toEqual([second.id]);
  });

  it('When the log shows the link’s use, then the token is not in it', async () => {
    const customer = await seedCustomer(t.ctx.db, accountId);
    const link = await newLink(customer.id);
    await request(t.app).get(link);
    const secret = link.split('/').pop() ?? '';
    expect(t.logs.lines.join('\n')).not.toContain(secret);
    expect(t.logs.lines.some((line) => line.includes('/portal/session/[token]'))).toBe(true);
  });
});

describe('the portal session cookie in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { NODE_ENV: 'production', PUBLIC_URL: 'https://rps.example' } });
  });
  afterAll(() => t.close());

  it('When a link is opened in production, then the cookie is also Secure', async () => {
    const { token, accountId } = await t.newAccount();
    const customer = await seedCustomer(t.ctx.db, accountId);
    const created = await t.as(token).post(`/api/v2/customers/${customer.id}/portal-sessions`, {});
    expect((created.body as { url: string }).url).toMatch(/^https:\/\/rps\.example\/portal\/session\//);
    const res = await request(t.app).get(new URL((created.body as { url: string }).url).pathname);
    expect(res.status).toBe(303);
    expect(([] as string[]).concat(res.headers['set-cookie'] ?? [])).toEqual([
      expect.stringMatching(/^portal_session=[A-Za-z0-9_-]{43}; Path=\/portal; HttpOnly; Secure; SameSite=Lax$/),
    ]);
  });
});
