import request from 'supertest';
import { TEST_DATABASES } from '../support/databases';
import type { MollieFake } from '../../fakes/mollie/fake';
import { accountAtMollieFake, type MollieAccount } from '../support/mollieAccount';
import { useTestApp } from '../support/testApp';

/**
 * One payment at a time per payment link, through the hosted page against a Mollie fake that counts
 * payments and customers: a payment still under way is shown as in progress, never made twice.
 */
describe.each(TEST_DATABASES)('the pay page while a payment is in progress, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let mollie: MollieAccount;
  let fake: MollieFake;
  let accountId: string;
  let token: string;

  beforeEach(async () => {
    mollie = await accountAtMollieFake(t, 'In progress');
    ({ fake, accountId, token } = mollie);
  });
  afterEach(async () => {
    mollie.stop();
  });

  const buyer = { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' };
  const newLink = async () => {
    const res = await t.as(token).post('/api/v2/links', { type: 'payment', description: 'Invoice 42', amount: 25 });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const visit = (linkId: string) => request(t.app).get(`/pay/${linkId}`).set('Accept-Language', 'en');
  const press = (linkId: string, form: Record<string, string> = buyer) =>
    request(t.app).post(`/pay/${linkId}`).set('Accept-Language', 'en').type('form').send(form);
  const paymentsOf = (linkId: string) =>
    t.ctx.db('payments').where({ account_id: accountId, purpose: 'link', purpose_id: linkId }).orderBy('created_at').orderBy('seq');
  const customersHere = () => t.ctx.db('customers').where({ account_id: accountId });

  /** The payer's bank tells Mollie something, and Mollie reports it. */
  async function atMollie(providerPaymentId: string, status: string) {
    fake.setPaymentStatus(providerPaymentId, status);
    await mollie.report(providerPaymentId);
  }

  const expectInProgressPage = (res: request.Response, linkId: string) => {
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1>Payment in progress</h1>');
    expect(res.text).toContain(`<a href="/pay/${linkId}">Check again</a>`);
    expect(res.headers.refresh).toBe(`15; url=/pay/${linkId}`);
    expect(res.text).not.toContain('<form');
    expect(res.text).not.toMatch(/<script/i);
  };

  it.each(['pending', 'authorized'])(
    'When the link’s payment is %s, then a second visit and a second press show the in-progress page, with one payment and one customer',
    async (status) => {
      const linkId = await newLink();
      const first = await press(linkId);
      expect(first.status).toBe(303);
      const [payment] = await paymentsOf(linkId);
      await atMollie(payment.provider_payment_id, status);
      expect((await paymentsOf(linkId))[0]).toMatchObject({ status });

      expectInProgressPage(await visit(linkId), linkId);
      expectInProgressPage(await press(linkId), linkId);
      expectInProgressPage(await press(linkId), linkId);
      expect(await paymentsOf(linkId)).toHaveLength(1);
      expect(fake.payments.size).toBe(1);
      expect(await customersHere()).toHaveLength(1);
      expect(fake.customers.size).toBe(1);

      // The page that looks again shows how it ended.
      await atMollie(payment.provider_payment_id, 'paid');
      const paid = await visit(linkId);
      expect(paid.status).toBe(410);
      expect(paid.text).toContain('Already paid');
    },
  );

  it('When the in-progress payment fails, then the page offers to pay again', async () => {
    const linkId = await newLink();
    await press(linkId);
    const [payment] = await paymentsOf(linkId);
    await atMollie(payment.provider_payment_id, 'pending');
    expectInProgressPage(await visit(linkId), linkId);
    await atMollie(payment.provider_payment_id, 'failed');
    const again = await visit(linkId);
    expect(again.status).toBe(200);
    expect(again.headers.refresh).toBeUndefined();
    expect(again.text).toContain(`<form method="post" action="/pay/${linkId}"`);
  });

  it(
    'When the buyer tries again after a failed payment, then the new payment is made for the customer of the first, not a second ' + 'one',
    async () => {
      const linkId = await newLink();
      await press(linkId);
      const [failed] = await paymentsOf(linkId);
      await atMollie(failed.provider_payment_id, 'failed');

      const second = await press(linkId, { ...buyer, email: 'Anna@Example.nl' });
      expect(second.status).toBe(303);
      const payments = await paymentsOf(linkId);
      expect(payments).toHaveLength(2);
      expect(payments[1]).toMatchObject({
        status: 'open',
        customer_id: failed.customer_id,
        provider_customer_id: failed.provider_customer_id,
      });
      expect(await customersHere()).toHaveLength(1);
      expect(fake.customers.size).toBe(1);
    },
  );

  it('When someone else (another e-mail address) pays after a failed attempt, then they pay as a customer of their own', async () => {
    const linkId = await newLink();
    await press(linkId);
    const [failed] = await paymentsOf(linkId);
    await atMollie(failed.provider_payment_id, 'expired');

    expect((await press(linkId, { first_name: 'Bram', last_name: 'Jansen', email: 'bram@example.nl' })).status).toBe(303);
    const [, second] = await paymentsOf(linkId);
    expect(second.customer_id).not.toBe(failed.customer_id);
    expect((await customersHere()).map((customer) => customer.email).sort()).toEqual(['anna@example.nl', 'bram@example.nl']);
  });

  it(
    'When the pay button is pressed twice at once (a double submit), then the database lets one payment in and the second press goes ' +
      'to the same checkout',
    async () => {
      const res = await t.as(token).post('/api/v2/customers', buyer);
      const linked = await t
        .as(token)
        .post('/api/v2/links', { type: 'payment', description: 'Invoice 43', amount: 25, customer_id: res.body.id });
      const linkId = String(linked.body.id);
      const presses = await Promise.all([press(linkId, {}), press(linkId, {}), press(linkId, {}), press(linkId, {})]);
      const payments = await paymentsOf(linkId);
      expect(payments).toHaveLength(1);
      expect(fake.paymentsWithReference(String(payments[0]?.id))).toHaveLength(1);
      expect(fake.payments.size).toBe(1);
      // Both presses lead to the one payment: its checkout, or (while it is still being made) the in-progress page.
      for (const pressed of presses) {
        if (pressed.status === 303) expect(pressed.headers.location).toBe(payments[0]?.checkout_url);
        else expectInProgressPage(pressed, linkId);
      }
    },
  );
});
