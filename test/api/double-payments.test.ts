import request from 'supertest';
import { accountsRepository } from '../../src/modules/accounts/repository';
import { runFollowUps } from '../../src/modules/follow-ups/progress';
import { startPayment } from '../../src/modules/payments/pipeline';
import type { PaymentPurpose } from '../../src/modules/payments/purposes';
import type { PaymentRow } from '../../src/modules/payments/repository';
import { cli } from '../cli/runInMemory';
import { connectedSimulatorStore } from '../support/connectedStore';
import { TEST_DATABASES } from '../support/databases';
import type { MollieFake } from '../../fakes/mollie/fake';
import { accountAtMollieFake, type MollieAccount } from '../support/mollieAccount';
import { payStoreOrder, pendingStoreOrder } from '../support/storeCheckout';
import { useTestApp } from '../support/testApp';

/**
 * A link or a store order paid twice: the second paid payment opens a follow-up (kind double_payment)
 * that tells the merchant which payment to refund, and is never retried or sent to the customer. The
 * second payment is made the way the pay page or checkout made one before one-at-a-time (or a race of
 * two requests still can): through the pipeline, for the same link or order.
 */
describe.each(TEST_DATABASES)('double payments on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let mollie: MollieAccount;
  let fake: MollieFake;
  let token: string;
  let accountId: string;
  let customer: { id: string; provider_customer_id: string };

  beforeEach(async () => {
    mollie = await accountAtMollieFake(t, 'Double');
    ({ fake, token, accountId } = mollie);
    expect((await cli(t.ctx, 'accounts', 'set-webhook', '--account', mollie.name, '--url', 'https://merchant.example/events')).code).toBe(
      0,
    );
    customer = (await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' })).body;
  });
  afterEach(async () => {
    mollie.stop();
  });

  /** Mollie reports the payment's new status (as often as `times`). */
  async function atMollie(payment: Pick<PaymentRow, 'provider_payment_id'>, status: string, times = 1) {
    const providerPaymentId = payment.provider_payment_id ?? '';
    fake.setPaymentStatus(providerPaymentId, status);
    for (let call = 0; call < times; call += 1) await mollie.report(providerPaymentId);
  }

  /** A second payment of the same link or order, made through the pipeline as a second request would. */
  async function secondPayment(purpose: PaymentPurpose, purposeId: string, amount: number): Promise<PaymentRow> {
    const account = await accountsRepository.findById(t.ctx.db, accountId);
    if (!account) throw new Error('no account');
    return startPayment(t.ctx, account, {
      purpose,
      purposeId,
      customer: { id: customer.id, providerCustomerId: customer.provider_customer_id },
      sequenceType: 'oneoff',
      mandateId: null,
      amount,
      currency: 'EUR',
      description: 'Second tab',
      method: null,
      redirectUrl: 'https://shop.example/back',
      webhookUrl: null,
      profileId: null,
    });
  }

  const followUps = async () => (await t.as(token).get('/api/v2/follow-ups')).body.data as Array<Record<string, unknown>>;

  it(
    'When a payment link is paid twice, then one follow-up asks the merchant to refund the later payment, and nothing is charged or ' +
      'sent for it',
    async () => {
      const link = await t
        .as(token)
        .post('/api/v2/links', { type: 'payment', description: 'Invoice 42', amount: 25, customer_id: customer.id });
      expect((await request(t.app).post(`/pay/${link.body.id}`).type('form').send({})).status).toBe(303);
      const first = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'link', purpose_id: link.body.id }).first();
      const second = await secondPayment('link', link.body.id, 2500);

      await atMollie(first, 'paid');
      expect(await followUps()).toEqual([]);
      await atMollie(second, 'paid', 2); // Mollie reports it twice: still one follow-up

      const list = await followUps();
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        status: 'pending',
        amount: '25.00',
        currency: 'EUR',
        provider_payment_id: second.provider_payment_id,
        reason_code: 'double_payment',
        reason:
          `Paid twice: this payment link was already paid by ${first.id}. This payment (${second.provider_payment_id}) ` +
          'is refunded automatically (see its refunds in the API).',
        retries_done: 0,
        mails_sent: 0,
        next_retry_at: null,
        customer: expect.objectContaining({ id: customer.id }),
      });
      // The later payment is refunded in full, once, keyed by it; the earlier one keeps its money.
      const [refund] = await t.ctx.db('refunds').where({ account_id: accountId });
      expect(refund).toMatchObject({ payment_id: second.id, origin_key: `double-${second.id}`, amount: 2500, status: 'pending' });
      expect(fake.refundsOf(second.provider_payment_id ?? '')).toEqual([
        expect.objectContaining({ amount: { value: '25.00', currency: 'EUR' }, metadata: { refund_id: refund.id } }),
      ]);
      expect(fake.refundsOf(first.provider_payment_id)).toEqual([]);
      const paymentsAtMollie = fake.payments.size;
      t.clock.advance(20 * 24 * 60 * 60 * 1000);
      expect(await runFollowUps(t.ctx, '2026-12-11')).toMatchObject({ retried: 0, linked: 0, failed: 0 });
      expect(fake.payments.size).toBe(paymentsAtMollie);
      expect(fake.refunds.size).toBe(1);
      expect(await t.ctx.db('outgoing_mails').where({ account_id: accountId })).toHaveLength(0);
      expect(await t.ctx.db('payment_links').where({ account_id: accountId })).toHaveLength(1);
      const events = await t.ctx.db('outbound_events').where({ account_id: accountId }).pluck('event');
      expect(events.filter((event: string) => event.startsWith('follow_up.'))).toEqual(['follow_up.created']);
    },
  );

  it(
    'When the two payments settle so close together that neither saw the other, then the follow-ups job opens the one ' + 'follow-up',
    async () => {
      const link = await t
        .as(token)
        .post('/api/v2/links', { type: 'payment', description: 'Invoice 44', amount: 25, customer_id: customer.id });
      await request(t.app).post(`/pay/${link.body.id}`).type('form').send({});
      const first = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'link', purpose_id: link.body.id }).first();
      const second = await secondPayment('link', link.body.id, 2500);
      await atMollie(second, 'paid');
      // The first one's own transaction read before this one committed, and committed after it: paid, unseen.
      await t.ctx.db('payments').where({ id: first.id }).update({ status: 'paid' });
      expect(await followUps()).toEqual([]);

      expect(await runFollowUps(t.ctx, '2026-11-21')).toMatchObject({ retried: 0, linked: 0 });
      expect(await followUps()).toEqual([
        expect.objectContaining({
          reason_code: 'double_payment',
          provider_payment_id: second.provider_payment_id,
          reason: expect.stringContaining(first.id),
        }),
      ]);
      // Its refund too: the settle hook that would have made it never saw the double.
      expect(fake.refundsOf(second.provider_payment_id ?? '')).toHaveLength(1);
      expect(fake.refundsOf(first.provider_payment_id)).toHaveLength(0);
      await runFollowUps(t.ctx, '2026-11-21');
      expect(await followUps()).toHaveLength(1);
      expect(fake.refunds.size).toBe(1);
    },
  );

  it(
    'When both payments of a link are reported paid at once, then both are paid and, after the follow-ups job at the latest, one ' +
      'follow-up is open',
    async () => {
      const link = await t
        .as(token)
        .post('/api/v2/links', { type: 'payment', description: 'Invoice 45', amount: 25, customer_id: customer.id });
      await request(t.app).post(`/pay/${link.body.id}`).type('form').send({});
      const first = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'link', purpose_id: link.body.id }).first();
      const second = await secondPayment('link', link.body.id, 2500);
      fake.setPaymentStatus(first.provider_payment_id, 'paid');
      fake.setPaymentStatus(second.provider_payment_id ?? '', 'paid');
      await Promise.all([mollie.report(first.provider_payment_id), mollie.report(second.provider_payment_id ?? '')]);

      expect(await t.ctx.db('payments').whereIn('id', [first.id, second.id]).pluck('status')).toEqual(['paid', 'paid']);
      await runFollowUps(t.ctx, '2026-11-21');
      await t.ctx.background.idle();
      const [followUp] = await followUps();
      expect(followUp).toEqual(expect.objectContaining({ reason_code: 'double_payment' }));
      // One refund, of the payment the follow-up is about.
      expect(fake.refunds.size).toBe(1);
      expect(fake.refundsOf(String(followUp?.provider_payment_id))).toHaveLength(1);
    },
  );

  it('When a store order is paid twice, then the later payment gets a follow-up linked to the order', async () => {
    const store = await connectedSimulatorStore(t, token);
    try {
      const shopOrderId = pendingStoreOrder(store);
      const first = await payStoreOrder(t, token, customer.provider_customer_id, shopOrderId);
      expect(first.status).toBe(201);
      const order = await t.ctx.db('orders').where({ account_id: accountId, shop_order_id: shopOrderId }).first();
      const second = await secondPayment('order', order.id, 1500);

      await atMollie(first.body, 'paid');
      await atMollie(second, 'paid');
      const list = await followUps();
      expect(list).toEqual([
        expect.objectContaining({
          reason_code: 'double_payment',
          provider_payment_id: second.provider_payment_id,
          reason: expect.stringContaining(`this order was already paid by ${first.body.id}`),
          amount: '15.00',
          order: expect.objectContaining({ id: order.id }),
        }),
      ]);
    } finally {
      await t.ctx.background.idle();
      await store.stop();
    }
  });

  it('When a link’s earlier payment failed and a later one is paid, then that is no double payment', async () => {
    const link = await t
      .as(token)
      .post('/api/v2/links', { type: 'payment', description: 'Invoice 43', amount: 25, customer_id: customer.id });
    await request(t.app).post(`/pay/${link.body.id}`).type('form').send({});
    const first = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'link', purpose_id: link.body.id }).first();
    await atMollie(first, 'failed');
    expect((await request(t.app).post(`/pay/${link.body.id}`).type('form').send({})).status).toBe(303);
    const [, second] = await t.ctx
      .db('payments')
      .where({ account_id: accountId, purpose: 'link', purpose_id: link.body.id })
      .orderBy('seq');
    await atMollie(second, 'paid');
    expect(await followUps()).toEqual([]);
  });
});
