import { deliverDueEvents, deliverEvent, firstAttemptClaim } from '../../src/events/delivery';
import { enqueuePaymentEvents } from '../../src/events/events';
import { toDbDateTime } from '../../src/time';
import { TEST_DATABASES } from '../support/databases';
import { startReceiver } from '../support/receiver';
import { useTestApp } from '../support/testApp';

/**
 * A payment's event is written already claimed for the attempt its writer makes right after the
 * commit: that attempt needs no write of its own, and the delivery job leaves the event alone while
 * the claim holds — then takes it over, as it does for a writer that died before its attempt.
 */
describe.each(TEST_DATABASES)('the first attempt of an event on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  const noAbort = new AbortController().signal;

  /** An account's payment (made through the API) and its `paid` event to `url`, written claimed as the status change writes it. */
  async function claimedEvent(url: string): Promise<string> {
    const { token, accountId } = await t.newAccount();
    const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Piet', last_name: 'Bakker', email: 'piet@example.nl' });
    const created = await t.as(token).post('/api/v2/payments', {
      amount: 25,
      currency: 'EUR',
      provider_customer_id: customer.body.provider_customer_id,
      description: 'Order 78',
      redirect_url: 'https://shop.example/thanks',
    });
    expect(created.status).toBe(201);
    const now = t.clock.now();
    const payment = { id: String(created.body.id), account_id: accountId, webhook_url: url };
    const [id] = await t.ctx.db.transaction((trx) =>
      enqueuePaymentEvents(trx, payment, 'paid', toDbDateTime(now), { toPaymentUrl: true, claimedUntil: firstAttemptClaim(now) }),
    );
    return id as string;
  }

  it('When its writer attempts it, then it is sent once, without a claim of its own; the job sends it no second time', async () => {
    const receiver = await startReceiver([200]);
    try {
      const id = await claimedEvent(receiver.url);
      expect(await deliverEvent(t.ctx, id, { claimed: true })).toBe('delivered');
      t.clock.advance(120_000);
      expect(await deliverDueEvents(t.ctx, noAbort)).toEqual({ processed: 0, failed: 0 });
      expect(receiver.calls).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('When its writer never attempts it (it died), then the job leaves it while the claim holds and sends it after', async () => {
    const receiver = await startReceiver([200]);
    try {
      const id = await claimedEvent(receiver.url);
      expect(await deliverDueEvents(t.ctx, noAbort)).toEqual({ processed: 0, failed: 0 });
      t.clock.advance(59_000);
      expect(await deliverDueEvents(t.ctx, noAbort)).toEqual({ processed: 0, failed: 0 });
      t.clock.advance(2_000);
      expect(await deliverDueEvents(t.ctx, noAbort)).toEqual({ processed: 1, failed: 0 });
      expect(receiver.calls).toHaveLength(1);
      expect(await t.ctx.db('outbound_events').where({ id }).first()).toMatchObject({ status: 'delivered', attempts: 1 });
    } finally {
      await receiver.close();
    }
  });
});
