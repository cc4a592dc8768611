import type { MollieFake } from '../../fakes/mollie/fake';
import { fakeMollieOnClock } from '../../fakes/mollie/nock';
import { finishStalledCreations } from '../../src/jobs/finishProviderCreations';
import { reconcilePayments } from '../../src/jobs/reconcilePayments';
import { syncPaymentFromProvider } from '../../src/modules/payments/service';
import { TEST_DATABASES } from '../support/databases';
import { billableAccountWithToken, mollieCallsWebhook, paidCharges } from '../support/paidCharges';
import { useTestApp } from '../support/testApp';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Refunds of paid payments through `POST /api/v2/payments/{id}/refunds`, against the Mollie fake: our row first,
 * then Mollie with the row's key; never more than was paid minus refunded minus charged back (the database
 * decides, also for concurrent requests); statuses from Mollie's payment webhook and reconciliation; events.
 */
describe.each(TEST_DATABASES)('refunds on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let fake: MollieFake;
  let stopFake: () => void;
  let accountId: string;
  let token: string;
  let charge: { id: string; provider_payment_id: string };

  beforeEach(async () => {
    ({ fake, stop: stopFake } = fakeMollieOnClock(t.clock));
    ({ accountId, token } = await billableAccountWithToken(t, fake));
    const [paid] = await paidCharges(t, fake, accountId); // 12.50
    if (!paid) throw new Error('no charge');
    charge = paid;
    await t.ctx.db('accounts').where({ id: accountId }).update({ events_url: 'https://merchant.example/events' });
  });
  afterEach(async () => {
    stopFake();
  });

  const refund = (body: Record<string, unknown>, key?: string) => {
    const test = t.as(token).post(`/api/v2/payments/${charge.id}/refunds`).send(body);
    return key ? test.set('Idempotency-Key', key) : test;
  };
  const refundsAtMollie = () => fake.refundsOf(charge.provider_payment_id);
  const events = async () =>
    (await t.ctx.db('outbound_events').where({ account_id: accountId }).where('event', 'like', 'refund.%').orderBy('created_at')).map(
      (row: { event: string; resource_id: string }) => `${row.event} ${row.resource_id}`,
    );

  it('When part of a paid payment is refunded, then Mollie gets one refund with our id and row key; the rest can follow', async () => {
    const first = await refund({ amount: 5, description: 'Broken cup' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual(
      expect.objectContaining({ payment_id: charge.id, status: 'pending', amount: '5.00', currency: 'EUR', description: 'Broken cup' }),
    );
    const [atMollie] = refundsAtMollie();
    expect(atMollie).toEqual(
      expect.objectContaining({ amount: { value: '5.00', currency: 'EUR' }, metadata: { refund_id: first.body.id } }),
    );
    expect(first.body.provider_refund_id).toBe(atMollie?.id);
    expect(fake.requests.find((r) => r.method === 'POST' && r.path.includes('/refunds'))?.idempotencyKey).toBe(`refund-${first.body.id}`);

    const rest = await refund({});
    expect(rest.status).toBe(201);
    expect(rest.body.amount).toBe('7.50');
    const more = await refund({ amount: 0.01 });
    expect(more.status).toBe(422);
    expect(more.body.fields.amount[0]).toMatch(/Nothing is left to refund/);

    const list = await t.as(token).get(`/api/v2/payments/${charge.id}/refunds`);
    expect(list.body.data.map((r: { amount: string }) => r.amount).sort()).toEqual(['5.00', '7.50']);
    const one = await t.as(token).get(`/api/v2/payments/${charge.id}/refunds/${first.body.id}`);
    expect(one.body.id).toBe(first.body.id);
    expect(refundsAtMollie()).toHaveLength(2);
    expect((await events()).sort()).toEqual([`refund.created ${first.body.id}`, `refund.created ${rest.body.id}`].sort());
  });

  it('When more than is left is asked, then it is refused with a clear 422 and nothing reaches Mollie', async () => {
    const res = await refund({ amount: 12.51 });
    expect(res.status).toBe(422);
    expect(res.body.fields.amount[0]).toBe('The amount is more than can still be refunded (12.50 EUR).');
    expect(refundsAtMollie()).toHaveLength(0);
    // Once the bank took money back, nothing more goes back by refund.
    fake.chargeBack(charge.provider_payment_id, 500);
    await mollieCallsWebhook(t, accountId, charge.provider_payment_id);
    expect((await refund({ amount: 1 })).status).toBe(422);
    expect((await refund({ amount: 1 })).body.fields.payment[0]).toMatch(/only paid payments can be refunded; this one is charged_back/);
  });

  it('When two refunds race for the same money, then the database lets only one through and Mollie gets one', async () => {
    const answers = await Promise.all([refund({ amount: 10 }), refund({ amount: 10 }), refund({ amount: 10 })]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422, 422]);
    expect(refundsAtMollie()).toHaveLength(1);
    const reserved = await t.ctx.db('payments').where({ id: charge.id }).first('amount_refund_reserved');
    expect(Number(reserved.amount_refund_reserved)).toBe(1000);
  });

  it('When another account asks, or the payment is not paid, then 404 or 422', async () => {
    const other = await t.newAccount('Other shop');
    expect((await t.as(other.token).post(`/api/v2/payments/${charge.id}/refunds`).send({})).status).toBe(404);
    expect((await t.as(token).post('/api/v2/payments/pay_unknown/refunds').send({})).status).toBe(404);
  });

  it('When Mollie refunds it in full, then its webhook settles the refund, the payment is refunded and the events tell', async () => {
    const res = await refund({});
    expect(res.status).toBe(201);
    const [atMollie] = refundsAtMollie();
    fake.setRefundStatus(String(atMollie?.id), 'refunded');
    await mollieCallsWebhook(t, accountId, charge.provider_payment_id);

    expect((await t.as(token).get(`/api/v2/payments/${charge.id}/refunds/${res.body.id}`)).body.status).toBe('refunded');
    expect((await t.as(token).get(`/api/v2/payments/${charge.id}`)).body.status).toBe('refunded');
    expect(await events()).toEqual([`refund.created ${res.body.id}`, `refund.refunded ${res.body.id}`]);
    expect((await refund({ amount: 1 })).body.fields.payment[0]).toMatch(/refunded in full already/);
  });

  it("When a refund goes through, then the payment's invoice gets one credit note for what went back", async () => {
    const [invoice] = await t.ctx.db('invoices').where({ account_id: accountId, payment_id: charge.id });
    expect(invoice).toMatchObject({ status: 'issued', total_including_vat: 1250 });
    const res = await refund({ amount: 5 });
    const [atMollie] = refundsAtMollie();
    // Not before the money went back: a refund still pending corrects nothing yet.
    await mollieCallsWebhook(t, accountId, charge.provider_payment_id);
    expect((await t.as(token).get(`/api/v2/invoices/${invoice.id}`)).body.credit_notes).toEqual([]);
    fake.setRefundStatus(String(atMollie?.id), 'refunded');
    await mollieCallsWebhook(t, accountId, charge.provider_payment_id);
    await mollieCallsWebhook(t, accountId, charge.provider_payment_id);

    expect((await t.as(token).get(`/api/v2/payments/${charge.id}/refunds/${res.body.id}`)).body.status).toBe('refunded');
    expect((await t.as(token).get(`/api/v2/invoices/${invoice.id}`)).body.credit_notes).toEqual([
      expect.objectContaining({ reason: 'refund', total_including_vat: '-5.00' }),
    ]);
  });

  it('When a refund fails at Mollie, then its amount can be refunded again; reconciliation finds it without a webhook', async () => {
    const res = await refund({ amount: 12.5 });
    const [atMollie] = refundsAtMollie();
    fake.setRefundStatus(String(atMollie?.id), 'failed');
    t.clock.advance(11 * MINUTE);
    await reconcilePayments(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();

    expect((await t.as(token).get(`/api/v2/payments/${charge.id}/refunds/${res.body.id}`)).body.status).toBe('failed');
    expect(await events()).toEqual([`refund.created ${res.body.id}`, `refund.failed ${res.body.id}`]);
    expect((await refund({ amount: 12.5 })).status).toBe(201);
  });

  it('When the refund answer is lost, then the row is kept (502) and the retry with the same key makes no second refund', async () => {
    fake.loseAnswers('POST', /\/refunds$/, 1);
    const lost = await refund({ amount: 4 }, 'refund-key-1');
    expect(lost.status).toBe(502);
    expect(refundsAtMollie()).toHaveLength(1);
    const [row] = await t.ctx.db('refunds').where({ account_id: accountId });
    expect(row.status).toBe('creating');

    const retried = await refund({ amount: 4 }, 'refund-key-1');
    expect(retried.status).toBe(201);
    expect(retried.body.id).toBe(row.id);
    expect(retried.body.status).toBe('pending');
    expect(refundsAtMollie()).toHaveLength(1);
    // What the lost one reserved is not reserved twice.
    expect((await refund({ amount: 8.51 })).status).toBe(422);
  });

  it('When nobody retries a lost refund and the key expired, then the job looks it up by our id first: still one refund', async () => {
    fake.loseAnswers('POST', /\/refunds$/, 1);
    expect((await refund({ amount: 4 })).status).toBe(502);
    // Past Mollie's key window a new call with the key would make a second refund: the look-up finds the first.
    t.clock.advance(2 * HOUR);
    expect(await finishStalledCreations(t.ctx, new AbortController().signal)).toEqual({ processed: 1, failed: 0 });
    expect(refundsAtMollie()).toHaveLength(1);
    const [row] = await t.ctx.db('refunds').where({ account_id: accountId });
    expect(row.status).toBe('pending');
    expect(row.provider_refund_id).toBe(refundsAtMollie()[0]?.id);
  });

  it('When a resumed call is refused, then the refund is looked up before it is called failed', async () => {
    fake.loseAnswers('POST', /\/refunds$/, 1);
    expect((await refund({ amount: 12.5 })).status).toBe(502);
    // The same key again is refused (Mollie forgot it and the money is all refunded): the look-up still finds the first.
    fake.refuse('POST', /\/refunds$/, {
      status: 422,
      body: { status: 422, title: 'Unprocessable Entity', detail: 'The amount is higher than the amount that can be refunded' },
    });
    t.clock.advance(3 * MINUTE);
    expect(await finishStalledCreations(t.ctx, new AbortController().signal)).toEqual({ processed: 1, failed: 0 });
    const [row] = await t.ctx.db('refunds').where({ account_id: accountId });
    expect(row.status).toBe('pending');
    expect(refundsAtMollie()).toHaveLength(1);
  });

  it('When several refunds are made within one second, then they are listed in the order they were made', async () => {
    // created_at has whole seconds and the clock stands still: only the order they were made in can sort them.
    const amounts = ['1.00', '2.00', '3.00', '0.50', '4.00'];
    for (const amount of amounts) expect((await refund({ amount: Number(amount) })).status).toBe(201);
    const list = await t.as(token).get(`/api/v2/payments/${charge.id}/refunds`);
    expect(list.body.data.map((row: { amount: string }) => row.amount)).toEqual(amounts);
    expect(new Set(list.body.data.map((row: { created_at: string }) => row.created_at)).size).toBe(1);
  });

  it('When a refund is made in the Mollie dashboard, the next sync records it once (external-refund-…) and credits it once', async () => {
    const [invoice] = await t.ctx.db('invoices').where({ account_id: accountId, payment_id: charge.id });
    const dashboard = fake.refundInDashboard(charge.provider_payment_id, 300, 'refunded');
    // Two webhook calls at the same moment, and the payment's sync run again afterwards: one refund, one credit note.
    await Promise.all([
      syncPaymentFromProvider(t.ctx, accountId, charge.provider_payment_id),
      syncPaymentFromProvider(t.ctx, accountId, charge.provider_payment_id),
    ]);
    await mollieCallsWebhook(t, accountId, charge.provider_payment_id);
    t.clock.advance(11 * MINUTE);
    await reconcilePayments(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();

    const rows = await t.ctx.db('refunds').where({ account_id: accountId, payment_id: charge.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ origin_key: `external-refund-${dashboard.id}`, provider_refund_id: dashboard.id, status: 'refunded' });
    expect(Number(rows[0].amount)).toBe(300);
    const list = await t.as(token).get(`/api/v2/payments/${charge.id}/refunds`);
    expect(list.body.data).toEqual([
      expect.objectContaining({ amount: '3.00', status: 'refunded', origin_key: `external-refund-${dashboard.id}`, reference: null }),
    ]);
    expect((await t.as(token).get(`/api/v2/invoices/${invoice.id}`)).body.credit_notes).toEqual([
      expect.objectContaining({ reason: 'refund', total_including_vat: '-3.00' }),
    ]);
    expect(await events()).toEqual([`refund.created ${rows[0].id}`, `refund.refunded ${rows[0].id}`]);
    // What went out in the dashboard is no longer left to refund here.
    expect((await refund({ amount: 9.51 })).body.fields.amount[0]).toBe('The amount is more than can still be refunded (9.50 EUR).');
  });

  it('When a dashboard refund is still pending at the sync, then it is recorded pending and credited once it went out', async () => {
    const dashboard = fake.refundInDashboard(charge.provider_payment_id, 250);
    await mollieCallsWebhook(t, accountId, charge.provider_payment_id);
    const [row] = await t.ctx.db('refunds').where({ account_id: accountId, payment_id: charge.id });
    expect(row).toMatchObject({ status: 'pending', origin_key: `external-refund-${dashboard.id}` });
    expect(await t.ctx.db('credit_notes').where({ account_id: accountId })).toHaveLength(0);
    fake.setRefundStatus(String(dashboard.id), 'refunded');
    await mollieCallsWebhook(t, accountId, charge.provider_payment_id);
    await mollieCallsWebhook(t, accountId, charge.provider_payment_id);
    expect(await t.ctx.db('refunds').where({ account_id: accountId, payment_id: charge.id }).pluck('status')).toEqual(['refunded']);
    const notes = await t.ctx.db('credit_notes').where({ account_id: accountId });
    expect(notes.map((note: { total_including_vat: number }) => Number(note.total_including_vat))).toEqual([-250]);
  });

  it('When a refund asked with a reference lost its answer, then asking again a day later with it answers that refund', async () => {
    fake.loseAnswers('POST', /\/refunds$/, 1);
    const lost = await refund({ amount: 4, reference: 'wc-order-1001-refund-1' }, 'wc-order-1001-refund-1');
    expect(lost.status).toBe(502);
    // Past the Idempotency-Key's 24 hours (and Mollie's key window): the reference finds the refund, Mollie gets no second.
    t.clock.advance(25 * HOUR);
    const again = await refund({ amount: 4, reference: 'wc-order-1001-refund-1' }, 'wc-order-1001-refund-1');
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ status: 'pending', amount: '4.00', reference: 'wc-order-1001-refund-1' });
    expect(refundsAtMollie()).toHaveLength(1);
    // The store's look-up before another refund: the payment's refunds carry the reference.
    const list = await t.as(token).get(`/api/v2/payments/${charge.id}/refunds`);
    expect(list.body.data).toEqual([expect.objectContaining({ id: again.body.id, reference: 'wc-order-1001-refund-1' })]);
  });

  it('When a refund of a payment with a webhook_url is made or goes out, then that address hears refund.* naming the refund', async () => {
    // The store plugin's callback address: it records there a refund whose answer it lost, or one made outside the store.
    const callback = 'https://store.example/wc-api/rps_payment?order_id=42&key=wc_order_abc';
    await t.ctx.db('payments').where({ id: charge.id }).update({ webhook_url: callback });
    const res = await refund({ amount: 2 });
    const dashboard = fake.refundInDashboard(charge.provider_payment_id, 100, 'refunded');
    fake.setRefundStatus(String(refundsAtMollie()[0]?.id), 'refunded');
    await mollieCallsWebhook(t, accountId, charge.provider_payment_id);
    const [external] = await t.ctx.db('refunds').where({ account_id: accountId, origin_key: `external-refund-${dashboard.id}` });
    const told = await t.ctx.db('outbound_events').where({ account_id: accountId, url: callback }).orderBy('created_at');
    expect(
      told
        .map((row: { payload: string }) => JSON.parse(row.payload))
        .sort((a, b) => a.event.localeCompare(b.event) || a.refund_id.localeCompare(b.refund_id)),
    ).toEqual(
      [
        { id: charge.id, event: 'refund.created', refund_id: res.body.id, status: 'pending', amount: '2.00', currency: 'EUR' },
        { id: charge.id, event: 'refund.created', refund_id: external.id, status: 'refunded', amount: '1.00', currency: 'EUR' },
        { id: charge.id, event: 'refund.refunded', refund_id: res.body.id, status: 'refunded', amount: '2.00', currency: 'EUR' },
        { id: charge.id, event: 'refund.refunded', refund_id: external.id, status: 'refunded', amount: '1.00', currency: 'EUR' },
      ].sort((a, b) => a.event.localeCompare(b.event) || a.refund_id.localeCompare(b.refund_id)),
    );
  });

  it('When a refund of ours reaches Mollie while a sync reads the payment, then it is not recorded a second time as external', async () => {
    // A dashboard refund makes the sync list Mollie's refunds; ours is made between its read of our rows and that list.
    const dashboard = fake.refundInDashboard(charge.provider_payment_id, 100, 'refunded');
    const handle = fake.handle.bind(fake);
    let ours: { body: { id: string } } | undefined;
    fake.handle = async (request) => {
      if (!ours && request.method === 'GET' && /\/refunds(\?|$)/.test(request.path)) ours = await refund({ amount: 2 });
      return handle(request);
    };
    await syncPaymentFromProvider(t.ctx, accountId, charge.provider_payment_id);
    fake.handle = handle;
    const ourRefund = refundsAtMollie().find((atMollie) => atMollie.id !== dashboard.id);
    fake.setRefundStatus(String(ourRefund?.id), 'refunded');
    await mollieCallsWebhook(t, accountId, charge.provider_payment_id);
    await t.ctx.background.idle();

    const rows = await t.ctx.db('refunds').where({ account_id: accountId, payment_id: charge.id }).orderBy('sequence');
    expect(rows.map((row: { id: string; origin_key: string | null; amount: number }) => [row.origin_key, Number(row.amount)])).toEqual(
      expect.arrayContaining([
        [`external-refund-${dashboard.id}`, 100],
        [null, 200],
      ]),
    );
    expect(rows).toHaveLength(2);
    expect(rows.find((row: { origin_key: string | null }) => row.origin_key === null)?.id).toBe(ours?.body.id);
    const notes = await t.ctx.db('credit_notes').where({ account_id: accountId });
    expect(notes.map((note: { total_including_vat: number }) => Number(note.total_including_vat)).sort((a, b) => a - b)).toEqual([
      -200, -100,
    ]);
    // 12.50 paid, 3.00 went out: 9.50 is left.
    expect((await refund({ amount: 9.51 })).body.fields.amount[0]).toBe('The amount is more than can still be refunded (9.50 EUR).');
  });

  it('When a dashboard refund is noticed only after a later refund of ours, then it is still listed first', async () => {
    const dashboard = fake.refundInDashboard(charge.provider_payment_id, 100, 'refunded');
    t.clock.advance(HOUR);
    const ours = await refund({ amount: 2 });
    expect(ours.status).toBe(201);
    await mollieCallsWebhook(t, accountId, charge.provider_payment_id);
    const list = await t.as(token).get(`/api/v2/payments/${charge.id}/refunds`);
    expect(list.body.data.map((row: { provider_refund_id: string }) => row.provider_refund_id)).toEqual([
      dashboard.id,
      ours.body.provider_refund_id,
    ]);
  });
});
