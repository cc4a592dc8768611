import request from 'supertest';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { seedCustomer } from '../support/seed';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';

/** The hosted page of a payment link through HTTP, on the sandbox; the clock stands at 2026-11-21 10:00 UTC. */
describe.each(TEST_DATABASES)('the hosted pay page on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let accountId: string;
  let accountName: string;

  beforeAll(async () => {
    accountName = `Page shop ${Math.random().toString(36).slice(2, 8)}`;
    ({ token, accountId } = await t.newAccount(accountName));
  });
  afterEach(() => t.ctx.background.idle());

  const newLink = async (body: Record<string, unknown>) => {
    const res = await t.as(token).post('/api/v2/links', { type: 'payment', description: 'Invoice 42', amount: 25, ...body });
    expect(res.status).toBe(201);
    return res.body as { id: string; url: string };
  };
  const page = (id: string, language?: string) => {
    const req = request(t.app).get(`/pay/${id}`);
    return language ? req.set('Accept-Language', language) : req;
  };
  const pay = (id: string, form: Record<string, string> = {}) => request(t.app).post(`/pay/${id}`).type('form').send(form);
  const buyer = { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' };
  const paymentsOf = (linkId: string) => t.ctx.db('payments').where({ account_id: accountId, purpose: 'link', purpose_id: linkId });

  it(
    'When the page is opened, then it is HTML in the browser’s language with the merchant’s display name and the amount for that ' +
      'language',
    async () => {
      await cli(t.ctx, 'accounts', 'set-profile', '--account', accountName, '--display-name', 'Bakkerij Jansen');
      const link = await newLink({});
      expect(link.url).toBe(`${TEST_PUBLIC_URL}/pay/${link.id}`);
      const nl = await page(link.id, 'nl-NL,nl;q=0.9,en;q=0.8');
      expect(nl.status).toBe(200);
      expect(nl.type).toBe('text/html');
      expect(nl.text).toContain('<html lang="nl">');
      expect(nl.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(nl.text).toContain('Betaling aan Bakkerij Jansen');
      expect(nl.text).toContain('25,00\u00a0€');
      expect(nl.text).not.toMatch(/<script/i);
      expect((await page(link.id, 'fr-CA,fr;q=0.9')).text).toContain('<html lang="fr">');
      expect((await page(link.id, 'xx')).text).toContain('<html lang="en">');
      expect((await page(link.id)).text).toContain('€25.00');
    },
  );

  it('When the link belongs to a customer, then the customer’s locale wins and no name or e-mail is asked', async () => {
    const customer = await seedCustomer(t.ctx.db, accountId, { locale: 'de' });
    const res = await page((await newLink({ customer_id: customer.id })).id, 'en');
    expect(res.text).toContain('<html lang="de">');
    expect(res.text).not.toContain('name="email"');
  });

  it('When a link has no customer, then every input has a label and an autocomplete hint', async () => {
    const res = await page((await newLink({})).id, 'en');
    for (const [name, autocomplete] of [
      ['first_name', 'given-name'],
      ['last_name', 'family-name'],
      ['email', 'email'],
    ]) {
      expect(res.text).toContain(`<label for="${name}">`);
      expect(res.text).toContain(`id="${name}" name="${name}"`);
      expect(res.text).toContain(`autocomplete="${autocomplete}"`);
    }
  });

  it(
    'When a subscription link is shown, then it says what is paid now, what later, how often, and when the first regular charge ' + 'is',
    async () => {
      const link = await newLink({
        type: 'subscription',
        amount: undefined,
        description: 'Coffee club',
        first_amount: 5,
        rules: [{ amount: 9.95, interval: 'month', interval_amount: 1, times: 12 }],
        trial_interval: '14 days',
      });
      const res = await page(link.id, 'en');
      expect(res.text).toContain('€5.00');
      expect(res.text).toContain('Then €9.95 every month, 12 times');
      expect(res.text).toContain('Includes a trial of 14 days.');
      expect(res.text).toContain('First regular charge on December 5, 2026.');
      expect((await page(link.id, 'nl')).text).toContain('Daarna 9,95\u00a0€ per maand, 12 keer');
    },
  );

  describe('what the customer agrees to', () => {
    let shopToken: string;
    const shopName = `Agreement shop ${Math.random().toString(36).slice(2, 8)}`;

    beforeAll(async () => {
      ({ token: shopToken } = await t.newAccount(shopName));
      await cli(
        t.ctx,
        'accounts',
        'set-profile',
        '--account',
        shopName,
        '--display-name',
        'Koffieclub',
        '--contact-email',
        'hallo@koffieclub.nl',
      );
    });

    const shopLink = async (body: Record<string, unknown>) => {
      const res = await t.as(shopToken).post('/api/v2/links', { description: 'Coffee club', ...body });
      expect(res.status).toBe(201);
      return res.body as { id: string };
    };
    const subscriptionLink = () =>
      shopLink({ type: 'subscription', rules: [{ amount: 9.95, interval: 'month', interval_amount: 1, times: 12 }] });

    it('When a subscription link is shown, then it states the charges, how they are collected, how to cancel, the contact', async () => {
      const res = await page((await subscriptionLink()).id, 'en');
      expect(res.text).toContain('Then €9.95 every month, 11 times');
      expect(res.text).toContain('<h2 id="agreement-title">What you agree to</h2>');
      expect(res.text).toContain(
        'By paying now you authorise Koffieclub to collect the regular charges above by SEPA direct debit from the bank account you pay ' +
          'with, or to charge them to the card you pay with.',
      );
      expect(res.text).toContain(
        'You can cancel at any time in the customer portal or by contacting Koffieclub. <a href="/portal">Customer portal</a>',
      );
      expect(res.text).toContain('Contact: <a href="mailto:hallo@koffieclub.nl">hallo@koffieclub.nl</a>');
    });

    it.each([
      ['nl', 'Waar u mee instemt', 'SEPA-incasso', 'Klantenportaal'],
      ['de', 'Dem stimmen Sie zu', 'SEPA-Lastschrift', 'Kundenportal'],
      ['fr', 'Ce que vous acceptez', 'prélèvement SEPA', 'Espace client'],
      ['es', 'Lo que acepta', 'adeudo directo SEPA', 'Portal del cliente'],
    ])('When a subscription link is shown in %s, then the agreement is in that language', async (locale, title, sepa, portal) => {
      const res = await page((await subscriptionLink()).id, locale);
      expect(res.text).toContain(`<html lang="${locale}">`);
      for (const text of [title, sepa, `<a href="/portal">${portal}</a>`, 'hallo@koffieclub.nl']) expect(res.text).toContain(text);
    });

    it('When a mandate link is shown, then it says the payment authorises future charges and how to stop them', async () => {
      const res = await page((await shopLink({ type: 'mandate' })).id, 'en');
      expect(res.text).toContain(
        'This payment authorises Koffieclub to collect future charges by SEPA direct debit from the bank account you pay with, or to ' +
          'charge them to the card you pay with.',
      );
      expect(res.text).toContain('<a href="/portal">Customer portal</a>');
    });

    it('When a one-off payment link is shown, then there is no agreement, but the contact e-mail is', async () => {
      const res = await page((await shopLink({ type: 'payment', amount: 25 })).id, 'en');
      expect(res.text).not.toContain('What you agree to');
      expect(res.text).toContain('hallo@koffieclub.nl');
    });

    it('When the account has no contact e-mail, then the page shows none', async () => {
      const res = await page(
        (await newLink({ type: 'subscription', amount: undefined, rules: [{ amount: 5, interval: 'month', interval_amount: 1 }] })).id,
        'en',
      );
      expect(res.text).toContain('What you agree to');
      expect(res.text).not.toContain('mailto:');
    });
  });

  it(
    'When a subscription link has no trial, then the payment now is the first of its times and the page counts the ones after ' + 'it',
    async () => {
      const rules = [{ amount: 9.95, interval: 'month', interval_amount: 1, times: 12 }];
      const twelve = await page((await newLink({ type: 'subscription', amount: undefined, description: 'Coffee club', rules })).id, 'en');
      expect(twelve.text).toContain('€9.95'); // now
      expect(twelve.text).toContain('Then €9.95 every month, 11 times');
      expect(twelve.text).toContain('First regular charge on December 21, 2026.'); // paid today (21 November): a month on
      const once = await page(
        (await newLink({ type: 'subscription', amount: undefined, description: 'One box', rules: [{ ...rules[0], times: 1 }] })).id,
        'en',
      );
      expect(once.text).not.toContain('Then €9.95');
      expect(once.text).not.toContain('First regular charge');
    },
  );

  it('When any pay page is served, then it carries a CSP without script, no framing, nosniff, no referrer and no caching', async () => {
    const res = await page((await newLink({})).id);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers).toMatchObject({
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
    const css = await request(t.app).get('/pay/assets/pay.css');
    expect(css.status).toBe(200);
    expect(css.type).toBe('text/css');
  });

  it('When the link is unknown, then 404; when it is expired, cancelled, inactive or paid, then 410 with a clear page', async () => {
    expect((await page('lnk_unknown', 'en')).status).toBe(404);
    const expired = await newLink({ expires_at: '2026-11-21' });
    t.clock.set('2026-11-22T00:00:00Z');
    try {
      const res = await page(expired.id, 'en');
      expect(res.status).toBe(410);
      expect(res.text).toContain('Link expired');
      expect((await pay(expired.id, buyer)).status).toBe(410);
    } finally {
      t.clock.set('2026-11-21T10:00:00Z');
    }
    const cancelled = await newLink({});
    await t.as(token).delete(`/api/v2/links/${cancelled.id}`);
    expect((await page(cancelled.id, 'en')).text).toContain('This payment link was withdrawn by the merchant.');
    const inactive = await newLink({});
    await t.ctx.db('payment_links').where({ id: inactive.id }).update({ active: false });
    expect((await page(inactive.id, 'en')).status).toBe(410);
    const paid = await newLink({});
    await t.ctx.db('payment_links').where({ id: paid.id }).update({ status: 'paid' });
    const paidPage = await page(paid.id, 'nl');
    expect(paidPage.status).toBe(410);
    expect(paidPage.text).toContain('Al betaald');
  });

  it(
    'When the name or e-mail is missing or wrong, then 422 re-renders the form with the values kept and the errors tied to the ' + 'inputs',
    async () => {
      const link = await newLink({});
      const res = await pay(link.id, { first_name: 'Anna', last_name: '', email: 'not-an-address' }).set('Accept-Language', 'en');
      expect(res.status).toBe(422);
      expect(res.text).toContain('value="Anna"');
      expect(res.text).toContain('aria-describedby="last_name-error"');
      expect(res.text).toContain('<p class="error" id="email-error">Please enter a valid e-mail address.</p>');
      expect(await paymentsOf(link.id)).toHaveLength(0);
    },
  );

  it(
    'When the buyer presses pay, then one oneoff payment for the link goes to the sandbox checkout; pressing again reuses ' + 'it',
    async () => {
      const link = await newLink({});
      const res = await pay(link.id, buyer);
      expect(res.status).toBe(303);
      expect(res.headers.location).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/sandbox/checkout/tr_`));
      const [payment] = await paymentsOf(link.id);
      expect(payment).toMatchObject({
        sequence_type: 'oneoff',
        amount: 2500,
        status: 'open',
        redirect_url: `${TEST_PUBLIC_URL}/pay/${link.id}/return`,
      });
      const again = await pay(link.id, buyer);
      expect(again.headers.location).toBe(res.headers.location);
      expect(await paymentsOf(link.id)).toHaveLength(1);
    },
  );

  it('When a subscription link is paid for, then the payment is a first payment of first_amount', async () => {
    const link = await newLink({ type: 'subscription', amount: 9.95, interval: 'month', first_amount: 1 });
    expect((await pay(link.id, buyer)).status).toBe(303);
    expect(await paymentsOf(link.id)).toEqual([expect.objectContaining({ sequence_type: 'first', amount: 100 })]);
  });

  it('When a form is posted from another site, then it is refused and nothing is made', async () => {
    const link = await newLink({});
    const res = await pay(link.id, buyer).set('Sec-Fetch-Site', 'cross-site');
    expect(res.status).toBe(403);
    expect(await paymentsOf(link.id)).toHaveLength(0);
  });

  describe('the return from the checkout', () => {
    async function returned(body: Record<string, unknown>, outcome: 'paid' | 'failed' | null) {
      const link = await newLink(body);
      const checkout = (await pay(link.id, buyer)).headers.location as string;
      if (outcome) await request(t.app).post(new URL(checkout).pathname).type('form').send({ status: outcome });
      return { link, res: await request(t.app).get(`/pay/${link.id}/return`).set('Accept-Language', 'en') };
    }

    it('When it was paid, then to redirect_url_paid, else to our thank-you page', async () => {
      expect((await returned({ redirect_url_paid: 'https://shop.example/thanks' }, 'paid')).res.headers.location).toBe(
        'https://shop.example/thanks',
      );
      const { link, res } = await returned({}, 'paid');
      expect(res.headers.location).toBe(`/pay/${link.id}/thanks`);
      expect((await request(t.app).get(`/pay/${link.id}/thanks`).set('Accept-Language', 'en')).text).toContain(
        'Your payment has been received.',
      );
    });

    it('When it failed, then to redirect_url_failed, else to our try-again page with the pay button', async () => {
      expect((await returned({ redirect_url_failed: 'https://shop.example/sorry' }, 'failed')).res.headers.location).toBe(
        'https://shop.example/sorry',
      );
      const { link, res } = await returned({}, 'failed');
      expect(res.headers.location).toBe(`/pay/${link.id}/failed`);
      const tryAgain = await request(t.app).get(`/pay/${link.id}/failed`).set('Accept-Language', 'en');
      expect(tryAgain.text).toContain('Try again');
      expect(tryAgain.text).toContain(`action="/pay/${link.id}"`);
    });

    it(
      'When the outcome is not known yet, then a page that checks again by itself, and after about 30 s says we are still ' + 'waiting',
      async () => {
        const { link, res } = await returned({}, null);
        expect(res.status).toBe(200);
        expect(res.headers.refresh).toBe(`2; url=/pay/${link.id}/return?check=1`);
        const last = await request(t.app).get(`/pay/${link.id}/return?check=15`).set('Accept-Language', 'en');
        expect(last.headers.refresh).toBeUndefined();
        expect(last.text).toContain('We are still waiting');
      },
    );
  });
});
