import request from 'supertest';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { seedCustomer } from '../support/seed';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';

const HOUR = 3_600_000;
const MINUTE = 60_000;

interface MailRow {
  account_id: string;
  template: string;
  recipient: string;
  locale: string;
  subject: string;
  text_body: string;
}

/** The log-in by e-mail at /portal, through HTTP. Every test starts in a new clock hour: the limits count per hour. */
describe.each(TEST_DATABASES)('the portal’s log-in by e-mail on %s', (kind) => {
  const t = useTestApp(kind);
  let accountId: string;
  let accountName: string;

  beforeAll(async () => {
    accountName = `Login shop ${Math.random().toString(36).slice(2, 8)}`;
    ({ accountId } = await t.newAccount(accountName));
    await t.ctx.db('accounts').where({ id: accountId }).update({ events_url: 'https://merchant.example/events' });
  });
  beforeEach(() => t.clock.advance(HOUR));

  /** A unique address per test, so tests do not see each other's mails or limits. */
  let counter = 0;
  const newAddress = () => `klant.${process.pid}.${(counter += 1)}@example.nl`;
  const askLink = async (email: string, language = 'en') => {
    const res = await request(t.app).post('/portal').type('form').set('Accept-Language', language).send({ email });
    await t.ctx.background.idle();
    return res;
  };
  const mailsTo = (email: string): Promise<MailRow[]> =>
    t.ctx.db('outgoing_mails').whereRaw('lower(recipient) = ?', [email.toLowerCase()]).orderBy('created_at');
  const linkIn = (mail: MailRow) => {
    const found = /\/portal\/session\/[A-Za-z0-9_-]{43}/.exec(mail.text_body);
    if (!found) throw new Error('no portal link in the mail');
    return found[0];
  };

  it.each([
    ['en', 'Manage your subscriptions'],
    ['nl', 'Uw abonnementen beheren'],
    ['de', 'Ihre Abonnements verwalten'],
    ['fr', 'Gérer vos abonnements'],
    ['es', 'Gestione sus suscripciones'],
  ])(
    'When /portal is opened in %s, then the log-in form is in that language, names no merchant, and has a labelled field',
    async (language, title) => {
      const res = await request(t.app).get('/portal').set('Accept-Language', language);
      expect(res.status).toBe(200);
      expect(res.text).toContain(`<html lang="${language}">`);
      expect(res.text).toContain(`<h1>${title}</h1>`);
      expect(res.text).toContain('<label for="email">');
      expect(res.text).toContain('<form method="post" action="/portal"');
      expect(res.text).not.toMatch(/<script/i);
      expect(res.headers['content-security-policy']).toContain("form-action 'self'");
    },
  );

  it('When an address is known and another is not, then both get the same answer: same status, same page', async () => {
    const known = newAddress();
    await seedCustomer(t.ctx.db, accountId, { email: known });
    const [a, b] = [await askLink(known), await askLink(newAddress())];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.text).toBe(b.text);
    expect(a.text).toContain('Check your e-mail');
    expect((await mailsTo(known)).length).toBe(1);
  });

  it(
    'When the address is a customer of two accounts (stored in another case), then each account sends its own mail, with its ' +
      'name and contact, in the customer’s language',
    async () => {
      const email = newAddress();
      await cli(
        t.ctx,
        'accounts',
        'set-profile',
        '--account',
        accountName,
        '--display-name',
        'Koffieclub',
        '--contact-email',
        'hallo@koffie.example',
      );
      const other = await t.newAccount();
      const mine = await seedCustomer(t.ctx.db, accountId, { email: email.toUpperCase(), locale: 'nl' });
      const theirs = await seedCustomer(t.ctx.db, other.accountId, { email, locale: null });
      expect((await askLink(email, 'de')).status).toBe(200);
      const mails = await mailsTo(email);
      expect(mails.map((mail) => [mail.account_id, mail.template, mail.locale, mail.recipient]).sort()).toEqual(
        [
          [accountId, 'portal-login', 'nl', mine.email],
          [other.accountId, 'portal-login', 'de', theirs.email],
        ].sort(),
      );
      const ours = mails.find((mail) => mail.account_id === accountId) as MailRow;
      expect(ours.subject).toContain('Koffieclub');
      expect(ours.text_body).toContain('hallo@koffie.example');
      expect(ours.text_body).toContain(`${TEST_PUBLIC_URL}/portal/session/`);
      // One link per customer, each scoped to its own account, each announced to its account only.
      const links = await t.ctx.db('portal_tokens').whereIn('customer_id', [mine.id, theirs.id]);
      expect(links.map((link: { account_id: string; purpose: string }) => [link.account_id, link.purpose]).sort()).toEqual(
        [
          [accountId, 'login-mail'],
          [other.accountId, 'login-mail'],
        ].sort(),
      );
      const events = await t.ctx.db('outbound_events').where({ account_id: accountId, event: 'portal.session_created' }).pluck('payload');
      expect(events.map((payload: string) => JSON.parse(payload))).toContainEqual(
        expect.objectContaining({ customer_id: mine.id, via: 'login_mail' }),
      );
    },
  );

  it('When the mailed link is opened, a button shows (a mail scanner uses nothing); pressing it opens the customer’s session', async () => {
    const email = newAddress();
    const customer = await seedCustomer(t.ctx.db, accountId, { email });
    await askLink(email);
    const link = linkIn((await mailsTo(email))[0] as MailRow);
    const shown = await request(t.app).get(link).set('Accept-Language', 'fr');
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(`<form method="post" action="${link}">`);
    expect(shown.headers['set-cookie']).toBeUndefined();
    expect((await request(t.app).get(link)).status).toBe(200);
    const pressed = await request(t.app).post(link).set('Sec-Fetch-Site', 'same-origin');
    expect([pressed.status, pressed.headers.location]).toEqual([303, '/portal/']);
    expect(String(pressed.headers['set-cookie'])).toMatch(/^portal_session=/);
    expect(await t.ctx.db('portal_sessions').where({ customer_id: customer.id })).toMatchObject([
      { account_id: accountId, ended_at: null },
    ]);
    expect((await request(t.app).get(link)).status).toBe(410);
    expect((await request(t.app).post(link)).status).toBe(410);
  });

  it('When the mailed link is 30 minutes old, then it no longer works', async () => {
    const email = newAddress();
    await seedCustomer(t.ctx.db, accountId, { email });
    await askLink(email);
    const link = linkIn((await mailsTo(email))[0] as MailRow);
    t.clock.advance(30 * MINUTE);
    expect((await request(t.app).get(link)).status).toBe(410);
    expect((await request(t.app).post(link)).status).toBe(410);
  });

  it(
    'When one address asks again and again, then the answer stays the same and it gets one mail per 5 minutes, never refused for ' +
      'longer',
    async () => {
      const email = newAddress();
      await seedCustomer(t.ctx.db, accountId, { email });
      const answers = [];
      for (let i = 0; i < 7; i += 1) answers.push(await askLink(i % 2 ? email.toUpperCase() : email));
      expect(new Set(answers.map((res) => `${res.status} ${res.text}`)).size).toBe(1);
      expect((await mailsTo(email)).length).toBe(1);
      expect(t.logs.lines.some((line) => line.includes('portal log-in over its rate limit'))).toBe(true);
      t.clock.advance(4 * MINUTE);
      await askLink(email);
      expect((await mailsTo(email)).length).toBe(1);
      t.clock.advance(MINUTE);
      await askLink(email);
      expect((await mailsTo(email)).length).toBe(2);
    },
  );

  it('When one client asks for more than 20 addresses in an hour, then the answer stays the same and nothing more is sent', async () => {
    const addresses = Array.from({ length: 21 }, newAddress);
    for (const email of addresses) await seedCustomer(t.ctx.db, accountId, { email });
    const answers = [];
    for (const email of addresses) answers.push(await askLink(email));
    expect(new Set(answers.map((res) => `${res.status} ${res.text}`)).size).toBe(1);
    expect((await mailsTo(addresses[19] as string)).length).toBe(1);
    expect((await mailsTo(addresses[20] as string)).length).toBe(0);
  });

  it('When the address is not one, then the form comes back (422) with the message tied to the field', async () => {
    const res = await request(t.app).post('/portal').type('form').send({ email: 'not-an-address<script>' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('aria-describedby="email-error"');
    expect(res.text).toContain('value="not-an-address&lt;script&gt;"');
  });

  it('When the form is posted from another site, then it is refused 403 and nothing is sent', async () => {
    const email = newAddress();
    await seedCustomer(t.ctx.db, accountId, { email });
    const res = await request(t.app).post('/portal').type('form').set('Sec-Fetch-Site', 'cross-site').send({ email });
    await t.ctx.background.idle();
    expect(res.status).toBe(403);
    expect((await mailsTo(email)).length).toBe(0);
  });

  it('When log-ins are asked for, then no address or link token appears in the log', async () => {
    const email = newAddress();
    await seedCustomer(t.ctx.db, accountId, { email });
    for (let i = 0; i < 6; i += 1) await askLink(email);
    const link = linkIn((await mailsTo(email))[0] as MailRow);
    await request(t.app).get(link);
    const log = t.logs.lines.join('\n').toLowerCase();
    expect(log).not.toContain(email.toLowerCase());
    expect(log).not.toContain(link.split('/').pop()?.toLowerCase());
  });
});

/** The log-in behind a reverse proxy (TRUST_PROXY) and under a flood from many addresses, through HTTP. */
describe.each(TEST_DATABASES)('the portal’s log-in limits behind a proxy on %s', (kind) => {
  const t = useTestApp(kind, { env: { TRUST_PROXY: '1' } });
  let accountId: string;

  beforeAll(async () => {
    ({ accountId } = await t.newAccount());
  });
  // A new clock hour for every test, and no address's turn left over from the one before.
  beforeEach(() => t.clock.advance(HOUR));

  let counter = 0;
  const newAddress = () => `proxied.${process.pid}.${(counter += 1)}@example.nl`;
  let client = 0;
  /** A client address of its own behind the proxy: 10.x.y.z. */
  const newClient = () => {
    client += 1;
    return `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
  };
  const askLink = async (email: string, from: string) => {
    const res = await request(t.app).post('/portal').type('form').set('X-Forwarded-For', from).send({ email });
    await t.ctx.background.idle();
    return res;
  };
  const mailsTo = async (email: string): Promise<number> =>
    (await t.ctx.db('outgoing_mails').whereRaw('lower(recipient) = ?', [email.toLowerCase()])).length;
  const limited = async (limit: string): Promise<number> => {
    const text = (await request(t.app).get('/metrics')).text;
    const found = new RegExp(`^rps_portal_login_limited_total\\{limit="${limit}"\\} (\\d+)$`, 'm').exec(text);
    return Number(found?.[1] ?? 0);
  };

  it('When clients behind the proxy ask for 21 addresses, then each client counts alone: all are sent', async () => {
    const addresses = Array.from({ length: 21 }, newAddress);
    for (const email of addresses) await seedCustomer(t.ctx.db, accountId, { email });
    for (const email of addresses) expect((await askLink(email, newClient())).status).toBe(200);
    for (const email of addresses) expect(await mailsTo(email)).toBe(1);
  });

  it('When one client behind the proxy asks for over 20 addresses in an hour, then its 21st is not sent; another client’s is', async () => {
    const addresses = Array.from({ length: 22 }, newAddress);
    for (const email of addresses) await seedCustomer(t.ctx.db, accountId, { email });
    const one = newClient();
    const before = await limited('ip');
    // The proxy adds the client's address after what the client claimed: the last hop is believed.
    for (const email of addresses.slice(0, 21)) await askLink(email, `203.0.113.${counter % 250}, ${one}`);
    expect(await mailsTo(addresses[19] as string)).toBe(1);
    expect(await mailsTo(addresses[20] as string)).toBe(0);
    expect(await limited('ip')).toBe(before + 1);
    await askLink(addresses[21] as string, newClient());
    expect(await mailsTo(addresses[21] as string)).toBe(1);
  });

  it(
    'When a flood from many clients asks for one customer’s address, then that address gets one mail per 5 minutes, the customer ' +
      'still gets in, and the metric counts the requests held back',
    async () => {
      const email = newAddress();
      await seedCustomer(t.ctx.db, accountId, { email });
      const before = await limited('address');
      for (let i = 0; i < 40; i += 1) expect((await askLink(email, newClient())).status).toBe(200);
      expect(await mailsTo(email)).toBe(1);
      expect(await limited('address')).toBe(before + 39);
      // The one mail sent works for the customer (30 minutes, longer than the address waits).
      const [mail] = await t.ctx.db('outgoing_mails').whereRaw('lower(recipient) = ?', [email.toLowerCase()]);
      const link = /\/portal\/session\/[A-Za-z0-9_-]{43}/.exec(mail.text_body)?.[0] as string;
      t.clock.advance(4 * MINUTE);
      expect((await request(t.app).post(link).set('Sec-Fetch-Site', 'same-origin')).status).toBe(303);
      // The flood goes on; the customer asks again a little later and gets a new mail.
      for (let i = 0; i < 10; i += 1) await askLink(email, newClient());
      expect(await mailsTo(email)).toBe(1);
      t.clock.advance(MINUTE);
      await askLink(email, newClient());
      expect(await mailsTo(email)).toBe(2);
    },
  );

  it('When more than 120 requests a minute come from all clients together, then the rest are not sent until the next minute', async () => {
    const email = newAddress();
    await seedCustomer(t.ctx.db, accountId, { email });
    const before = await limited('global');
    // Unknown addresses from as many clients: no per-client or per-address limit holds any of them back.
    for (let i = 0; i < 120; i += 1) await askLink(newAddress(), newClient());
    expect((await askLink(email, newClient())).status).toBe(200);
    expect(await mailsTo(email)).toBe(0);
    expect(await limited('global')).toBe(before + 1);
    t.clock.advance(MINUTE);
    await askLink(email, newClient());
    expect(await mailsTo(email)).toBe(1);
  });
});

/** Without TRUST_PROXY, the address a client claims in X-Forwarded-For counts for nothing. */
describe('the portal’s log-in limits without TRUST_PROXY', () => {
  const t = useTestApp('sqlite');

  it('When one connection claims 21 client addresses in X-Forwarded-For, then it is one client: its 21st address is not sent', async () => {
    const { accountId } = await t.newAccount();
    const addresses = Array.from({ length: 21 }, (_, i) => `unproxied.${process.pid}.${i}@example.nl`);
    for (const email of addresses) await seedCustomer(t.ctx.db, accountId, { email });
    for (const [i, email] of addresses.entries()) {
      await request(t.app)
        .post('/portal')
        .type('form')
        .set('X-Forwarded-For', `10.9.0.${i + 1}`)
        .send({ email });
      await t.ctx.background.idle();
    }
    const sent = async (email: string) => (await t.ctx.db('outgoing_mails').where({ recipient: email })).length;
    expect(await sent(addresses[19] as string)).toBe(1);
    expect(await sent(addresses[20] as string)).toBe(0);
  });
});
