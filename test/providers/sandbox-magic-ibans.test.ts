import { followUpsJob } from '../../src/jobs/followUps';
import { settleSandbox } from '../../src/jobs/settleSandbox';
import { billAsOf } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

/**
 * Outcomes on purpose, through HTTP: a subscription on a magic IBAN of the sandbox (docs/providers.md) has
 * the debits the IBAN names end as it says, reported within seconds as any sandbox change is.
 */
describe.each(TEST_DATABASES)('the sandbox magic IBANs on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true, audited: true });

  /** What the scheduler does every 5 seconds, once the clock has moved on by `ms`. */
  const later = async (ms: number) => {
    t.clock.advance(ms);
    return settleSandbox(t.ctx, new AbortController().signal);
  };

  /** A monthly subscription from 2026-11-22 on a mandate with this IBAN, made through the API. */
  async function subscribeOn(iban: string): Promise<{ token: string; subscriptionId: string }> {
    const { token } = await t.newAccount();
    const api = t.as(token);
    const customer = await api.post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' });
    const mandate = await api.post(`/api/v2/customers/${customer.body.id}/mandates`, {
      consumer_name: 'A. de Vries',
      consumer_account: iban,
    });
    expect(mandate.status).toBe(201);
    const subscription = await api.post('/api/v2/subscriptions', {
      name: 'Coffee club',
      customer_id: customer.body.id,
      provider_profile_id: 'pfl_demo',
      provider_mandate_id: mandate.body.id,
      start_date: '2026-11-22',
      rules: [{ amount: 9.95, interval: 'month', interval_amount: 1 }],
    });
    expect(subscription.status).toBe(201);
    return { token, subscriptionId: subscription.body.id };
  }

  /** The subscription's payments, oldest first. */
  async function chargesOf(token: string, subscriptionId: string): Promise<Array<Record<string, string | null>>> {
    const { data } = (await t.as(token).get('/api/v2/payments?per_page=100')).body as { data: Array<Record<string, string | null>> };
    return data
      .filter((row) => row.subscription_id === subscriptionId)
      .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
  }

  it('When a subscription is on the AM04-on-debit-3 IBAN, then debit 3 fails AM04, its follow-up opens and its retry is paid', async () => {
    const { token, subscriptionId } = await subscribeOn('NL16 SNDB 0004 0300 00');
    for (const date of ['2026-11-22', '2026-12-22', '2027-01-22']) {
      await billAsOf(t.ctx, date);
      expect(await later(5 * SECOND)).toEqual({ processed: 1, failed: 0 });
    }
    const charges = await chargesOf(token, subscriptionId);
    expect(charges.map((charge) => [charge.status, charge.failure_code])).toEqual([
      ['paid', null],
      ['paid', null],
      ['failed', 'AM04'],
    ]);
    const followUps = (await t.as(token).get('/api/v2/follow-ups')).body.data;
    expect(followUps).toEqual([expect.objectContaining({ reason_code: 'AM04', provider_payment_id: charges[2]?.provider_payment_id })]);

    // Its retry is debit 4 on the mandate, which the IBAN leaves to the cents rules: paid, and the follow-up is solved.
    t.clock.set(`${followUps[0].next_retry_at}T10:00:00Z`);
    await followUpsJob.run(t.ctx, new AbortController().signal);
    expect(await later(5 * SECOND)).toEqual({ processed: 1, failed: 0 });
    const retry = (await chargesOf(token, subscriptionId))[3];
    expect(retry).toMatchObject({ status: 'paid', sequence_type: 'recurring' });
    expect((await t.as(token).get('/api/v2/follow-ups')).body.data).toEqual([
      expect.objectContaining({ status: 'solved', retries_done: 1, provider_payment_id: retry?.provider_payment_id }),
    ]);
  });

  it('When a subscription is on the MD06-of-debit-1-after-3-days IBAN, then its debit is paid, then charged back 3 days on', async () => {
    const { token, subscriptionId } = await subscribeOn('NL62 SNDB 0006 0103 00');
    await billAsOf(t.ctx, '2026-11-22');
    expect(await later(5 * SECOND)).toEqual({ processed: 1, failed: 0 });
    const [charge] = await chargesOf(token, subscriptionId);
    expect(charge).toMatchObject({ status: 'paid' });
    expect(await later(2 * DAY)).toEqual({ processed: 0, failed: 0 });
    expect(await later(1 * DAY)).toEqual({ processed: 1, failed: 0 });
    expect((await t.as(token).get(`/api/v2/payments/${charge?.id}`)).body.status).toBe('charged_back');
    const followUps = (await t.as(token).get('/api/v2/follow-ups')).body.data;
    expect(followUps).toEqual([expect.objectContaining({ reason_code: 'MD06', amount: '9.95' })]);
    // Charged back once: a later run finds nothing to do.
    expect(await later(5 * SECOND)).toEqual({ processed: 0, failed: 0 });
  });
});
