import type { AppContext } from '../../src/context';
import { ProviderUnavailableError } from '../../src/errors';
import { reconcilePayments, reconcilePaymentsJob } from '../../src/jobs/reconcilePayments';
import { runJobOnce } from '../../src/jobs/runner';
import type { PaymentProvider } from '../../src/providers';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const MINUTE = 60_000;

/**
 * The test app's context with its provider watched: every getPayment is recorded, and the
 * provider payment ids in `failing` answer as if the provider were down.
 */
function watchedContext(ctx: AppContext, failing: ReadonlySet<string> = new Set()) {
  const fetched: string[] = [];
  const watched: AppContext = {
    ...ctx,
    providers: {
      async forAccount(account) {
        const real = await ctx.providers.forAccount(account);
        // Everything else goes to the real provider; getPayment is watched.
        const provider: PaymentProvider = Object.assign(Object.create(real) as PaymentProvider, {
          async getPayment(id: string) {
            fetched.push(id);
            if (failing.has(id)) throw new ProviderUnavailableError();
            return real.getPayment(id);
          },
        });
        return provider;
      },
    },
  };
  return { ctx: watched, fetched };
}

describe.each(TEST_DATABASES)('reconciliation job on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let token: string;
  let providerCustomerId: string;

  // A database of its own per test: the job looks at every account's payments.
  beforeEach(async () => {
    ({ token } = await t.newAccount());
    providerCustomerId = await customerOf(token);
  });

  async function customerOf(accountToken: string): Promise<string> {
    const res = await t.as(accountToken).post('/api/v2/customers', { first_name: 'Piet', last_name: 'Bakker', email: 'piet@example.nl' });
    return res.body.provider_customer_id;
  }

  /** A payment through the API; returns our id and the provider's. */
  async function createPayment(method?: string, accountToken = token, customerId = providerCustomerId) {
    const res = await t.as(accountToken).post('/api/v2/payments', {
      amount: 12.5,
      currency: 'EUR',
      provider_customer_id: customerId,
      description: 'Order 1001',
      redirect_url: 'https://shop.example/thanks',
      ...(method ? { method } : {}),
    });
    expect(res.status).toBe(201);
    return { id: res.body.id as string, providerId: res.body.provider_payment_id as string };
  }

  /** The payer paid, but the provider's webhook never reached us. */
  const paidAtProviderOnly = (providerId: string) =>
    t.ctx.db('sandbox_payments').where({ id: providerId }).update({ status: 'paid', paid_at: '2026-11-21 10:05:00' });

  const statusOf = async (id: string, accountToken = token) => (await t.as(accountToken).get(`/api/v2/payments/${id}`)).body;

  const run = (ctx: AppContext = t.ctx) => reconcilePayments(ctx, new AbortController().signal);

  it(
    'When a payment past its expiry lost its webhook, then the job fetches it and it is paid, with its status history, in every ' +
      'account',
    async () => {
      const ours = await createPayment('ideal');
      const other = await t.newAccount();
      const theirs = await createPayment('ideal', other.token, await customerOf(other.token));
      await paidAtProviderOnly(ours.providerId);
      await paidAtProviderOnly(theirs.providerId);
      t.clock.advance(30 * MINUTE);

      expect(await runJobOnce(t.ctx, reconcilePaymentsJob, 'test-instance')).toMatchObject({
        outcome: 'ran',
        result: { processed: 2, failed: 0 },
      });

      for (const [payment, accountToken] of [
        [ours, token],
        [theirs, other.token],
      ] as const) {
        expect(await statusOf(payment.id, accountToken)).toMatchObject({
          status: 'paid',
          paid_at: '2026-11-21 11:05:00',
          status_history: [
            { status: 'open', changed_at: '2026-11-21 11:00:00' },
            { status: 'paid', changed_at: '2026-11-21 11:30:00' },
          ],
        });
      }
    },
  );

  // Expiry plus the 10-minute margin, a minute either side.
  it.each([
    ['ideal', 'ideal', 24 * MINUTE, 26 * MINUTE],
    ['creditcard', 'creditcard', 39 * MINUTE, 41 * MINUTE],
    ['bancontact', 'bancontact', 69 * MINUTE, 71 * MINUTE],
    ['banktransfer', 'banktransfer', 14 * 24 * 60 * MINUTE + 9 * MINUTE, 14 * 24 * 60 * MINUTE + 11 * MINUTE],
    ['no method chosen yet', undefined, 189 * MINUTE, 191 * MINUTE],
  ])(
    'When a payment (%s) is younger than its expiry plus the margin, then it is not fetched; just past it, it is',
    async (_label, method, before, after) => {
      const payment = await createPayment(method);
      const watched = watchedContext(t.ctx);
      t.clock.advance(before);
      expect(await run(watched.ctx)).toEqual({ processed: 0, failed: 0 });
      expect(watched.fetched).toEqual([]);

      t.clock.advance(after - before);
      expect(await run(watched.ctx)).toEqual({ processed: 1, failed: 0 });
      expect(watched.fetched).toEqual([payment.providerId]);
    },
  );

  it(
    'When fetching one payment fails, then the others are still reconciled, the failure is counted and logged, and it is retried ' +
      'later',
    async () => {
      const first = await createPayment('ideal');
      const broken = await createPayment('ideal');
      const last = await createPayment('ideal');
      for (const payment of [first, broken, last]) await paidAtProviderOnly(payment.providerId);
      const watched = watchedContext(t.ctx, new Set([broken.providerId]));
      t.clock.advance(30 * MINUTE);

      expect(await run(watched.ctx)).toEqual({ processed: 2, failed: 1 });
      expect((await statusOf(first.id)).status).toBe('paid');
      expect((await statusOf(last.id)).status).toBe('paid');
      expect((await statusOf(broken.id)).status).toBe('open');
      expect(t.logs.lines.some((line) => line.includes('payment reconciliation failed') && line.includes(broken.id))).toBe(true);

      // Not on every run: a provider that is down is not hammered.
      expect(await run(watched.ctx)).toEqual({ processed: 0, failed: 0 });
      t.clock.advance(20 * MINUTE);
      expect(await run()).toEqual({ processed: 1, failed: 0 });
      expect((await statusOf(broken.id)).status).toBe('paid');
    },
  );

  it('When the provider answers the same status, then nothing changes and the next immediate run does not fetch it again', async () => {
    const payment = await createPayment('ideal');
    const watched = watchedContext(t.ctx);
    t.clock.advance(30 * MINUTE);

    expect(await run(watched.ctx)).toEqual({ processed: 1, failed: 0 });
    expect(await statusOf(payment.id)).toMatchObject({
      status: 'open',
      status_history: [{ status: 'open', changed_at: '2026-11-21 11:00:00' }],
    });
    expect(await run(watched.ctx)).toEqual({ processed: 0, failed: 0 });
    expect(watched.fetched).toEqual([payment.providerId]);

    // After the recheck interval it is asked again.
    t.clock.advance(19 * MINUTE);
    expect(await run(watched.ctx)).toEqual({ processed: 0, failed: 0 });
    t.clock.advance(MINUTE);
    expect(await run(watched.ctx)).toEqual({ processed: 1, failed: 0 });
    expect(watched.fetched).toEqual([payment.providerId, payment.providerId]);
  });

  it('When more payments are due than one batch holds, then the longest untouched go first and the rest on the next run', async () => {
    const older = await createPayment('ideal');
    t.clock.advance(MINUTE);
    const newer = await createPayment('ideal');
    t.clock.advance(MINUTE);
    const newest = await createPayment('ideal');
    const watched = watchedContext(t.ctx);
    t.clock.advance(30 * MINUTE);

    expect(await reconcilePayments(watched.ctx, new AbortController().signal, 2)).toEqual({ processed: 2, failed: 0 });
    expect(watched.fetched).toEqual([older.providerId, newer.providerId]);
    expect(await reconcilePayments(watched.ctx, new AbortController().signal, 2)).toEqual({ processed: 1, failed: 0 });
    expect(watched.fetched).toEqual([older.providerId, newer.providerId, newest.providerId]);
  });

  it('When a payment is already final, or its status changed a moment ago, then it is not fetched', async () => {
    const paid = await createPayment('ideal');
    const justPending = await createPayment('ideal');
    await t.ctx.db('payments').where({ id: paid.id }).update({ status: 'paid' });
    const watched = watchedContext(t.ctx);
    t.clock.advance(30 * MINUTE);
    // A webhook moved it to pending 10 minutes ago: the provider is busy with it.
    await t.ctx.db('payments').where({ id: justPending.id }).update({ status: 'pending', updated_at: '2026-11-21 10:20:00' });

    expect(await run(watched.ctx)).toEqual({ processed: 0, failed: 0 });
    expect(watched.fetched).toEqual([]);
  });

  it('When the run is asked to stop, then it fetches nothing more', async () => {
    await createPayment('ideal');
    const watched = watchedContext(t.ctx);
    t.clock.advance(30 * MINUTE);
    const controller = new AbortController();
    controller.abort();
    expect(await reconcilePayments(watched.ctx, controller.signal)).toEqual({ processed: 0, failed: 0 });
    expect(watched.fetched).toEqual([]);
  });
});
