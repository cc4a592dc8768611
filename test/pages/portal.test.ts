import request from 'supertest';
import { mandateLabel } from '../../src/modules/mandates/display';
import type { MandateRow } from '../../src/modules/mandates/repository';
import { subscribe, type Subscribed } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { openPortal } from '../support/portal';
import { useTestApp } from '../support/testApp';

/**
 * The signed-in customer portal through HTTP: the overview, and each action's confirmation page and
 * form, with its confirmation mail and account event. The clock stands at 2026-11-21; subscriptions
 * start on 2026-12-01 at 12.50 a month on a direct-debit mandate of NL91ABNA0417164300.
 */
describe.each(TEST_DATABASES)('the customer portal pages on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let accountId: string;
  let emails = 0;

  beforeAll(async () => {
    ({ token, accountId } = await t.newAccount('Portal Coffee'));
    await t.ctx
      .db('accounts')
      .where({ id: accountId })
      .update({ display_name: 'Koffie & Co', contact_email: 'help@koffie.example', events_url: 'https://merchant.example/events' });
  });
  afterEach(() => t.ctx.background.idle());

  /** A customer of its own (unique e-mail) with a subscription on a valid mandate. */
  const newCustomer = (as = token) => {
    emails += 1;
    return subscribe(t, as, { email: `portal-${emails}@example.nl` });
  };
  const subscriptionRow = (id: string) => t.ctx.db('subscriptions').where({ id }).first();
  const mailsTo = (customer: Subscribed) =>
    t.ctx
      .db('customers')
      .where({ id: customer.customerId })
      .first('email')
      .then(({ email }) => t.ctx.db('outgoing_mails').where({ recipient: email }).orderBy('created_at'));
  const eventsOf = async (subscriptionId: string) =>
    (await t.ctx.db('outbound_events').where({ resource_id: subscriptionId }).orderBy('created_at')).map((row) => JSON.parse(row.payload));

  it(
    'When the customer opens the portal, then the overview shows the merchant, the subscription with its amount, next charge, ' +
      'remaining times and masked mandate, the payments and the invoices, and a log-out form with the CSRF token',
    async () => {
      const customer = await newCustomer();
      const portal = await openPortal(t, token, customer.customerId, { return_url: 'https://shop.example/account', locale: 'en' });
      const res = await portal.agent.get('/portal/');
      expect(res.status).toBe(200);
      expect(res.text).toContain('Koffie &amp; Co');
      expect(res.text).toContain('href="mailto:help@koffie.example"');
      expect(res.text).toContain('href="https://shop.example/account"');
      expect(res.text).toMatch(/<form method="post" action="\/portal\/logout">\s*<input type="hidden" name="_csrf" value="[^"]+">/);
      expect(res.text).toContain('Coffee box');
      expect(res.text).toContain('€12.50 every month');
      expect(res.text).toContain('December 1, 2026: €12.50');
      expect(res.text).toContain('Until you cancel');
      expect(res.text).toContain('NL** **** **** **43 00');
      expect(res.text).not.toContain('NL91ABNA0417164300');
      expect(res.text).toContain('No payments yet.');
      for (const action of ['pause', 'skip', 'cancel']) {
        expect(res.text).toContain(`href="/portal/subscriptions/${customer.subscriptionId}/${action}"`);
      }
      expect(res.text).toContain(`href="/portal/payment-method?subscription=${customer.subscriptionId}"`);

      // A payment and an invoice record of this customer, and another customer's payment that must not show.
      const other = await newCustomer();
      const stamp = '2026-11-21 10:00:00';
      const payment = (id: string, customerId: string, description: string, status: string) => ({
        id,
        account_id: accountId,
        customer_id: customerId,
        subscription_id: null,
        purpose: 'api',
        purpose_id: null,
        origin_key: null,
        provider_payment_id: null,
        provider_customer_id: null,
        provider_mandate_id: null,
        provider_profile_id: null,
        sequence_type: 'oneoff',
        status,
        amount: 1995,
        currency: 'EUR',
        description,
        method: null,
        redirect_url: null,
        webhook_url: null,
        checkout_url: null,
        failure_reason: null,
        failure_code: null,
        paid_at: status === 'paid' ? stamp : null,
        next_attempt_at: null,
        create_attempts: 0,
        created_at: stamp,
        updated_at: stamp,
      });
      await t.ctx
        .db('payments')
        .insert([
          payment(`pay_portal${emails}a`, customer.customerId, 'Beans for November', 'paid'),
          payment(`pay_portal${emails}b`, customer.customerId, 'Grinder', 'failed'),
          payment(`pay_portal${emails}c`, other.customerId, 'Someone else’s order', 'paid'),
        ]);
      await t.ctx.db('invoices').insert({
        id: `ivc_portal${emails}`,
        account_id: accountId,
        subscription_id: customer.subscriptionId,
        charge_id: `chg_portal${emails}`,
        payment_id: `pay_portal${emails}a`,
        customer_id: customer.customerId,
        currency: 'EUR',
        lines: '[]',
        total_excluding_vat: 1830,
        total_vat: 165,
        total_including_vat: 1995,
        workflow_id: null,
        docstyle_id: null,
        bookkeeping_status: 'none',
        bookkeeping_reference: 'INV-2026-0042',
        created_at: stamp,
      });
      const again = await portal.agent.get('/portal/');
      const cells = (row: string) => row.replace(/<td data-label="[^"]*"( class="num")?>/g, '|').replace(/<\/td>/g, '');
      expect(cells(again.text)).toContain('|November 21, 2026|Beans for November|€19.95|Paid</tr>');
      expect(cells(again.text)).toContain('|November 21, 2026|Grinder|€19.95|Not paid</tr>');
      expect(again.text).not.toContain('Someone else');
      expect(cells(again.text)).toContain('|INV-2026-0042|November 21, 2026|€19.95</tr>');
    },
  );

  it('When the portal is in Dutch, then the overview speaks Dutch with Dutch dates and amounts', async () => {
    const customer = await newCustomer();
    const portal = await openPortal(t, token, customer.customerId, { locale: 'nl' });
    const res = await portal.agent.get('/portal/');
    expect(res.text).toContain('<html lang="nl">');
    expect(res.text).toContain('Uw abonnementen');
    expect(res.text).toContain('12,50\u00a0€ per maand');
    expect(res.text).toContain('1 december 2026: 12,50\u00a0€');
    expect(res.text).toContain('Uitloggen');
  });

  it(
    'When the customer cancels with a reason, then the subscription ends on its next charge date, the reason is kept, one mail ' +
      'and one subscription.updated event via the portal are queued; sending the form again changes nothing',
    async () => {
      const customer = await newCustomer();
      const portal = await openPortal(t, token, customer.customerId, { locale: 'en' });
      const page = await portal.agent.get(`/portal/subscriptions/${customer.subscriptionId}/cancel`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Your subscription runs until December 1, 2026');
      expect(page.text).toMatch(/<input type="hidden" name="_csrf" value="[^"]+">/);

      const done = await portal.post(`/portal/subscriptions/${customer.subscriptionId}/cancel`, { reason: 'Too much coffee' });
      expect(done.status).toBe(303);
      expect(done.headers.location).toBe('/portal/?done=cancelled');
      const row = await subscriptionRow(customer.subscriptionId);
      expect(row).toMatchObject({ status: 'active', cancel_reason: 'Too much coffee' });
      expect(String(row.cancel_at).slice(0, 10)).toBe('2026-12-01');
      expect((await t.as(token).get(`/api/v2/subscriptions/${customer.subscriptionId}`)).body).toMatchObject({
        cancel_at: '2026-12-01',
        next_payment_at: null,
      });

      const overview = await portal.agent.get('/portal/?done=cancelled');
      expect(overview.text).toContain('Your subscription is cancelled.');
      expect(overview.text).toContain('Ends on December 1, 2026');
      expect(overview.text).not.toContain(`/portal/subscriptions/${customer.subscriptionId}/cancel`);

      expect(await portal.post(`/portal/subscriptions/${customer.subscriptionId}/cancel`, { reason: 'again' }).then((r) => r.status)).toBe(
        303,
      );
      const mails = await mailsTo(customer);
      expect(mails.map((mail) => mail.template)).toEqual(['portal-cancelled']);
      expect(mails[0].text_body).toContain('Too much coffee');
      expect(await eventsOf(customer.subscriptionId)).toEqual([
        {
          id: customer.subscriptionId,
          event: 'subscription.updated',
          changes: ['cancel_at'],
          cancel_at: '2026-12-01',
          via: 'portal',
          reason: 'Too much coffee',
        },
      ]);
    },
  );

  it(
    'When the customer pauses beyond the longest pause, then the form comes back with the error in their language; a date ' +
      'within it pauses until then, and resume makes it active again, each with its mail and event',
    async () => {
      const customer = await newCustomer();
      const portal = await openPortal(t, token, customer.customerId, { locale: 'en' });
      const form = await portal.agent.get(`/portal/subscriptions/${customer.subscriptionId}/pause`);
      expect(form.status).toBe(200);
      expect(form.text).toContain('min="2026-11-22" max="2027-02-21"'); // 92 days, the default

      const tooFar = await portal.post(`/portal/subscriptions/${customer.subscriptionId}/pause`, { until: '2027-03-01' });
      expect(tooFar.status).toBe(422);
      expect(tooFar.text).toContain('Please choose a date on or before February 21, 2027.');
      expect(tooFar.text).toContain('aria-invalid="true"');
      expect(tooFar.text).toContain('value="2027-03-01"');
      const past = await portal.post(`/portal/subscriptions/${customer.subscriptionId}/pause`, { until: '2026-11-21' });
      expect(past.status).toBe(422);
      expect(past.text).toContain('Please choose a date after today.');
      const empty = await portal.post(`/portal/subscriptions/${customer.subscriptionId}/pause`, { until: '' });
      expect(empty.status).toBe(422);
      expect(empty.text).toContain('Please enter a date.');
      expect(await subscriptionRow(customer.subscriptionId)).toMatchObject({ status: 'active' });

      const paused = await portal.post(`/portal/subscriptions/${customer.subscriptionId}/pause`, { until: '2027-01-15' });
      expect(paused.status).toBe(303);
      expect(paused.headers.location).toBe('/portal/?done=paused');
      expect((await t.as(token).get(`/api/v2/subscriptions/${customer.subscriptionId}`)).body).toMatchObject({
        status: 'paused',
        resume_at: '2027-01-15',
        next_payment_at: '2027-02-01',
      });
      const overview = await portal.agent.get('/portal/');
      expect(overview.text).toContain('Paused until January 15, 2027.');
      expect(overview.text).toContain(`/portal/subscriptions/${customer.subscriptionId}/resume`);
      expect(overview.text).not.toContain(`/portal/subscriptions/${customer.subscriptionId}/pause"`);

      expect((await portal.agent.get(`/portal/subscriptions/${customer.subscriptionId}/resume`)).status).toBe(200);
      const resumed = await portal.post(`/portal/subscriptions/${customer.subscriptionId}/resume`);
      expect(resumed.headers.location).toBe('/portal/?done=resumed');
      expect(await subscriptionRow(customer.subscriptionId)).toMatchObject({ status: 'active', resume_at: null });

      expect((await mailsTo(customer)).map((mail) => mail.template)).toEqual(['portal-paused', 'portal-resumed']);
      expect((await eventsOf(customer.subscriptionId)).map(({ event, via, resume_at: resumeAt }) => [event, via, resumeAt])).toEqual([
        ['subscription.paused', 'portal', '2027-01-15'],
        ['subscription.resumed', 'portal', undefined],
      ]);
    },
  );

  it(
    'When the customer skips the next charge, then that charge moves on to the next period with a mail and an event; the same ' +
      'form sent twice skips nothing more',
    async () => {
      const customer = await newCustomer();
      const portal = await openPortal(t, token, customer.customerId, { locale: 'en' });
      const page = await portal.agent.get(`/portal/subscriptions/${customer.subscriptionId}/skip`);
      expect(page.text).toContain('The charge of €12.50 on December 1, 2026 is not made, now or later.');
      expect(page.text).toContain('name="date" value="2026-12-01"');

      const skipped = await portal.post(`/portal/subscriptions/${customer.subscriptionId}/skip`, { date: '2026-12-01' });
      expect(skipped.headers.location).toBe('/portal/?done=skipped');
      const twice = await portal.post(`/portal/subscriptions/${customer.subscriptionId}/skip`, { date: '2026-12-01' });
      expect(twice.status).toBe(409);
      expect(twice.text).toContain('Not possible now');
      expect((await t.as(token).get(`/api/v2/subscriptions/${customer.subscriptionId}`)).body).toMatchObject({
        status: 'active',
        next_payment_at: '2027-01-01',
      });
      const mails = await mailsTo(customer);
      expect(mails.map((mail) => mail.template)).toEqual(['portal-skipped']);
      expect(mails[0].text_body).toContain('January 1, 2027');
      expect(await eventsOf(customer.subscriptionId)).toEqual([
        { id: customer.subscriptionId, event: 'subscription.skipped', status: 'active', skipped_date: '2026-12-01', via: 'portal' },
      ]);
    },
  );

  it(
    'When the customer changes the payment method, then the form leads to the pay page of a 0.01 mandate link; paid at the ' +
      'sandbox, every subscription moves to the new mandate, the old one is revoked, and one mail confirms it',
    async () => {
      const customer = await newCustomer();
      const second = await t.as(token).post('/api/v2/subscriptions', {
        name: 'Tea box',
        customer_id: customer.customerId,
        provider_profile_id: 'pfl_test123456',
        provider_mandate_id: customer.mandateId,
        start_date: '2026-12-01',
        rules: [{ amount: 7.5, interval: 'month', interval_amount: 1 }],
      });
      expect(second.status).toBe(201);
      const portal = await openPortal(t, token, customer.customerId, { locale: 'en' });
      const page = await portal.agent.get(`/portal/payment-method?subscription=${customer.subscriptionId}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('You pay €0.01 with your new bank account or card');
      expect(page.text).toContain(`value="${customer.subscriptionId}" checked`);

      const started = await portal.post('/portal/payment-method', { subscription: 'all' });
      expect(started.status).toBe(303);
      const linkId = /^\/pay\/(lnk_\w+)$/.exec(started.headers.location)?.[1] as string;
      expect(linkId).toBeTruthy();
      expect(await t.ctx.db('payment_links').where({ id: linkId }).first()).toMatchObject({
        type: 'mandate',
        first_amount: 1,
        customer_id: customer.customerId,
        redirect_url_paid: `${t.ctx.config.publicUrl}/portal/?done=method`,
      });
      expect(await t.ctx.db('mandate_takeovers').where({ link_id: linkId }).first()).toMatchObject({
        requested_via: 'portal',
        subscription_ids: null,
      });

      const pay = await request(t.app).post(`/pay/${linkId}`).type('form').send({});
      expect(pay.status).toBe(303);
      const providerPaymentId = /\/sandbox\/checkout\/([^/?]+)/.exec(pay.headers.location)?.[1] as string;
      const checkout = await request(t.app).post(`/sandbox/checkout/${providerPaymentId}`).type('form').send({ status: 'paid' });
      expect(checkout.status).toBe(303);
      await t.ctx.background.idle();

      const rows = await t.ctx.db('subscriptions').where({ customer_id: customer.customerId }).orderBy('id');
      const newMandateId = rows[0].provider_mandate_id as string;
      expect(newMandateId).not.toBe(customer.mandateId);
      expect(rows.map((row) => row.provider_mandate_id)).toEqual([newMandateId, newMandateId]);
      expect(await t.ctx.db('mandates').where({ id: customer.mandateId }).first()).toMatchObject({ status: 'invalid' });
      const newMandate = (await t.ctx.db('mandates').where({ id: newMandateId }).first()) as MandateRow;

      const mails = await mailsTo(customer);
      expect(mails.map((mail) => mail.template)).toEqual(['portal-method-changed']);
      expect(mails[0].text_body).toContain(mandateLabel(newMandate));
      expect(mails[0].text_body).toContain('Coffee box');
      expect(mails[0].text_body).toContain('Tea box');
      for (const row of rows) {
        expect(await eventsOf(row.id)).toContainEqual({
          id: row.id,
          event: 'subscription.updated',
          changes: ['provider_mandate_id'],
          via: 'portal',
        });
      }
      const overview = await portal.agent.get('/portal/?done=method');
      expect(overview.text).toContain('your new payment method is used');
      expect(overview.text.split(mandateLabel(newMandate)).length - 1).toBe(2);
    },
  );

  it(
    'When the merchant allows only pausing, then the other actions are not offered and their pages and forms answer 403, ' +
      'changing nothing',
    async () => {
      const limited = await t.newAccount('Pause-only Shop');
      await t.ctx.db('accounts').where({ id: limited.accountId }).update({ portal_allowed_actions: 'pause' });
      const customer = await newCustomer(limited.token);
      const portal = await openPortal(t, limited.token, customer.customerId, { locale: 'en' });
      const overview = await portal.agent.get('/portal/');
      expect(overview.text).toContain(`/portal/subscriptions/${customer.subscriptionId}/pause`);
      for (const hidden of ['skip', 'cancel'])
        expect(overview.text).not.toContain(`/portal/subscriptions/${customer.subscriptionId}/${hidden}`);
      expect(overview.text).not.toContain('/portal/payment-method');

      for (const action of ['skip', 'cancel']) {
        expect((await portal.agent.get(`/portal/subscriptions/${customer.subscriptionId}/${action}`)).status).toBe(403);
        const posted = await portal.post(`/portal/subscriptions/${customer.subscriptionId}/${action}`, { date: '2026-12-01' });
        expect(posted.status).toBe(403);
        expect(posted.text).toContain('The merchant does not offer this in the portal.');
      }
      expect((await portal.agent.get('/portal/payment-method')).status).toBe(403);
      expect((await portal.post('/portal/payment-method', { subscription: 'all' })).status).toBe(403);
      expect(await t.ctx.db('payment_links').where({ account_id: limited.accountId })).toEqual([]);
      expect(await subscriptionRow(customer.subscriptionId)).toMatchObject({ status: 'active', cancel_at: null });
      expect(await mailsTo(customer)).toEqual([]);
    },
  );

  it("When a form or page names another customer's or another account's subscription, then 404 and nothing changes", async () => {
    const customer = await newCustomer();
    const neighbour = await newCustomer();
    const elsewhere = await t.newAccount('Other Shop');
    const stranger = await newCustomer(elsewhere.token);
    const portal = await openPortal(t, token, customer.customerId, { locale: 'en' });
    for (const foreign of [neighbour.subscriptionId, stranger.subscriptionId, 'sub_doesnotexist']) {
      for (const action of ['cancel', 'pause', 'resume', 'skip']) {
        expect((await portal.agent.get(`/portal/subscriptions/${foreign}/${action}`)).status).toBe(404);
        const posted = await portal.post(`/portal/subscriptions/${foreign}/${action}`, { until: '2027-01-15', date: '2026-12-01' });
        expect(posted.status).toBe(404);
        expect(posted.text).toContain('We could not find this subscription.');
      }
      expect((await portal.post('/portal/payment-method', { subscription: foreign })).status).toBe(404);
    }
    for (const other of [neighbour, stranger]) {
      const row = await subscriptionRow(other.subscriptionId);
      expect(row).toMatchObject({ status: 'active', cancel_at: null, resume_at: null, provider_mandate_id: other.mandateId });
      expect(await mailsTo(other)).toEqual([]);
    }
    expect(await t.ctx.db('mandate_takeovers').where({ customer_id: customer.customerId })).toEqual([]);
    // Nor does the overview show them.
    const overview = await portal.agent.get('/portal/');
    expect(overview.text).not.toContain(neighbour.subscriptionId);
    expect(overview.text).not.toContain(stranger.subscriptionId);
  });
});
