import { settleSandbox, settleSandboxJob } from '../../src/jobs/settleSandbox';
import { TEST_DATABASES } from '../support/databases';
import request from 'supertest';
import { billAsOf } from '../support/billing';
import { TEST_PUBLIC_URL, useTestApp } from '../support/testApp';

const SECOND = 1000;

/**
 * README's "Five minutes with the sandbox", through HTTP: a one-off payment paid at the sandbox checkout,
 * a subscription billed by the billing run, and then, a few seconds on, its charge paid with its invoice
 * and a refund `refunded`, with the sandbox settling them by itself (the `settle-sandbox` job, what the
 * scheduler runs every 5 seconds) and no reconcile job run.
 */
describe.each(TEST_DATABASES)('the README walk-through on %s', (kind) => {
  const t = useTestApp(kind, { audited: true });

  /** What the scheduler does every 5 seconds, once the clock has moved on by `ms`. */
  const secondsLater = async (ms: number) => {
    t.clock.advance(ms);
    return settleSandbox(t.ctx, new AbortController().signal);
  };

  it('When the walk-through is followed, then it ends with a paid charge, its invoice and a refund, within seconds', async () => {
    const { token } = await t.newAccount('Demo Shop');
    const api = t.as(token);

    const customer = await api.post('/api/v2/customers', {
      first_name: 'Anna',
      last_name: 'de Vries',
      email: 'anna@example.nl',
      locale: 'nl',
      country: 'NL',
    });
    expect(customer.status).toBe(201);

    const payment = await api
      .post('/api/v2/payments', {
        amount: 12.5,
        currency: 'EUR',
        provider_customer_id: customer.body.provider_customer_id,
        description: 'Order 1001',
        redirect_url: 'https://example.com/thanks',
      })
      .set('Idempotency-Key', 'order-1001');
    expect(payment.status).toBe(201);
    const checkout = String(payment.body.provider_checkout_url).replace(TEST_PUBLIC_URL, '');
    expect((await request(t.app).post(checkout).type('form').send({ status: 'paid' })).status).toBe(303);
    expect((await api.get(`/api/v2/payments/${payment.body.id}`)).body.status).toBe('paid');

    const mandate = await api.post(`/api/v2/customers/${customer.body.id}/mandates`, {
      consumer_name: 'Anna de Vries',
      consumer_account: 'NL91ABNA0417164300',
    });
    expect(mandate.status).toBe(201);
    const start = '2026-11-22'; // tomorrow on the test clock
    const subscription = await api.post('/api/v2/subscriptions', {
      name: 'Coffee club',
      customer_id: customer.body.id,
      provider_profile_id: 'pfl_demo',
      provider_mandate_id: mandate.body.id,
      start_date: start,
      rules: [{ amount: 9.95, interval: 'month', interval_amount: 1 }],
    });
    expect(subscription.status).toBe(201);

    await billAsOf(t.ctx, start);
    const billed = (await api.get(`/api/v2/subscriptions/${subscription.body.id}`)).body;
    expect(billed).toMatchObject({ next_payment_at: '2026-12-22', rules: [expect.objectContaining({ times_done: 1 })] });
    const [charge] = (await api.get('/api/v2/payments')).body.data.filter(
      (row: { subscription_id: string | null }) => row.subscription_id === subscription.body.id,
    );
    expect(charge).toMatchObject({ status: 'pending', amount: '9.95', sequence_type: 'recurring' });

    // The sandbox settles the charge a few seconds on (not before), and our side hears of it at once.
    expect(await secondsLater(1 * SECOND)).toEqual({ processed: 0, failed: 0 });
    expect(await secondsLater(4 * SECOND)).toEqual({ processed: 1, failed: 0 });
    expect((await api.get(`/api/v2/payments/${charge.id}`)).body.status).toBe('paid');
    const invoices = (await api.get(`/api/v2/subscriptions/${subscription.body.id}/invoices`)).body.data;
    expect(invoices).toEqual([expect.objectContaining({ payment_id: charge.id })]);

    const refund = await api.post(`/api/v2/payments/${charge.id}/refunds`, { description: 'Wrong beans' });
    expect(refund.status).toBe(201);
    expect(refund.body.status).toBe('pending');
    expect(await secondsLater(5 * SECOND)).toEqual({ processed: 1, failed: 0 });
    expect((await api.get(`/api/v2/payments/${charge.id}/refunds/${refund.body.id}`)).body.status).toBe('refunded');
    expect((await api.get(`/api/v2/payments/${charge.id}`)).body.status).toBe('refunded');
    // Nothing is left for a later run.
    expect(await secondsLater(5 * SECOND)).toEqual({ processed: 0, failed: 0 });
  });

  it('When the job is scheduled, then it runs every few seconds', () => {
    expect(settleSandboxJob.schedule).toBe('*/5 * * * * *');
  });
});
