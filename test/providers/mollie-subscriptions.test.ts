import { readFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type tls from 'node:tls';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveOverHttps } from '../../fakes/mollie/https';
import { createLogger } from '../../src/logger';
import { ProviderNotFoundError, ProviderOutageError } from '../../src/providers/errors';
import { MollieProvider } from '../../src/providers/mollie/provider';
import { cacheSecureContextsByCa } from '../../src/providers/mollie/secureContexts';
import { intervalFromMollie } from '../../src/providers/mollie/transformers';
import { MemoryTransport } from '../support/testApp';
import { TEST_MOLLIE_KEY } from '../support/mollieNock';

const logger = createLogger('debug');
logger.clear();
logger.add(new MemoryTransport());

const FAKE_CERT = readFileSync(path.join(__dirname, '../../fakes/mollie/tls/cert.pem'), 'utf8');

type CreateConnection = (options: tls.ConnectionOptions, callback?: () => void) => Duplex;

/**
 * The Mollie client trusts its own bundle of root certificates, which does not hold the fake's self-signed
 * one. For connections to loopback only, that one certificate is trusted instead (and checked: the
 * connection is real TLS). Undone after the file.
 */
function trustFakeCertificateOnLoopback(): () => void {
  cacheSecureContextsByCa(); // the client's own wrapper first, so ours is outermost
  const prototype = https.Agent.prototype as unknown as { createConnection: CreateConnection };
  const original = prototype.createConnection;
  prototype.createConnection = function (this: https.Agent, options: tls.ConnectionOptions, callback?: () => void) {
    const loopback = options.host === '127.0.0.1';
    return original.call(this, loopback ? { ...options, ca: FAKE_CERT } : options, callback);
  };
  return () => {
    prototype.createConnection = original;
  };
}

/**
 * The Mollie adapter's part for importing Mollie's own subscriptions (list customers, list, cancel, their
 * payments), over real HTTPS against the Mollie fake (its self-signed certificate trusted on loopback).
 */
describe("MollieProvider and Mollie's Subscriptions API (fake over HTTPS)", () => {
  let fake: MollieFake;
  let server: { apiUrl: string; close(): Promise<void> };
  let provider: MollieProvider;
  let untrust: () => void;

  beforeAll(() => {
    untrust = trustFakeCertificateOnLoopback();
  });
  afterAll(() => untrust());
  beforeEach(async () => {
    fake = new MollieFake('');
    server = await serveOverHttps(fake);
    provider = new MollieProvider({
      credentials: { kind: 'apiKey', apiKey: TEST_MOLLIE_KEY },
      apiUrl: server.apiUrl,
      logger,
      onLocalWebhookUrl: () => undefined,
      timeoutMs: 5_000,
    });
  });
  afterEach(async () => {
    fake.heal();
    await server.close();
  });

  const paths = (method: string) => fake.requests.filter((r) => r.method === method).map((r) => r.path);

  /** A customer with a mandate and a monthly subscription of € 12.50 on it, due 1 December. */
  function monthlyAtMollie(overrides: Partial<Parameters<MollieFake['seedSubscription']>[1]> = {}) {
    const customerId = fake.seedCustomer({ name: 'Anna de Vries', email: 'anna@example.nl' });
    const mandateId = 'mdt_pWUnw6pkBN';
    const subscriptionId = fake.seedSubscription(customerId, {
      amount: 1250,
      interval: '1 month',
      startDate: '2026-09-01',
      nextPaymentDate: '2026-12-01',
      description: 'Coffee of the month',
      times: 12,
      timesRemaining: 9,
      mandateId,
      metadata: { plan: 'coffee' },
      ...overrides,
    });
    return { customerId, mandateId, subscriptionId };
  }

  describe('listCustomers', () => {
    it(
      'When Mollie has more customers than one page holds, ' + 'then pages of 250 follow the next cursor to the end, each customer once',
      async () => {
        const seeded = Array.from({ length: 260 }, (_, i) => fake.seedCustomer({ name: `Customer ${i}`, email: `c${i}@example.nl` }));
        const first = await provider.listCustomers();
        expect(first.customers).toHaveLength(250);
        expect(first.next).toEqual(expect.stringMatching(/^cst_/));
        // Newest first, with name and e-mail.
        expect(first.customers[0]).toEqual({ id: seeded[259], name: 'Customer 259', email: 'c259@example.nl' });
        const second = await provider.listCustomers(first.next ?? undefined);
        expect(second.customers).toHaveLength(10);
        expect(second.next).toBeNull();
        const listed = [...first.customers, ...second.customers].map((customer) => customer.id);
        expect(new Set(listed).size).toBe(260);
        expect([...listed].sort()).toEqual([...seeded].sort());
        expect(paths('GET')).toEqual(['/v2/customers?limit=250', `/v2/customers?limit=250&from=${first.next}`]);
      },
    );

    it('When Mollie has no customers, then one empty page without a next cursor', async () => {
      expect(await provider.listCustomers()).toEqual({ customers: [], next: null });
    });
  });

  describe('listSubscriptions', () => {
    it(
      'When a customer has subscriptions at Mollie, ' + 'then each is mapped: cents, {unit, count}, times, dates, mandate, status',
      async () => {
        const { customerId, mandateId, subscriptionId } = monthlyAtMollie();
        const fortnightly = fake.seedSubscription(customerId, {
          amount: 500,
          interval: '14 days',
          startDate: '2026-11-20',
          description: 'Flowers',
        });
        const canceled = fake.seedSubscription(customerId, {
          amount: 999,
          interval: '2 weeks',
          startDate: '2026-01-05',
          description: 'Old plan',
          status: 'canceled',
        });
        const listed = await provider.listSubscriptions(customerId);
        const byId = new Map(listed.map((subscription) => [subscription.id, subscription]));
        expect(listed).toHaveLength(3);
        expect(byId.get(subscriptionId)).toEqual({
          id: subscriptionId,
          customerId,
          mandateId,
          status: 'active',
          amount: 1250,
          currency: 'EUR',
          interval: { unit: 'month', count: 1 },
          intervalText: '1 month',
          intervalProblem: null,
          times: 12,
          timesRemaining: 9,
          startDate: '2026-09-01',
          nextPaymentDate: '2026-12-01',
          description: 'Coffee of the month',
          metadata: { plan: 'coffee' },
          canceledAt: null,
        });
        expect(byId.get(fortnightly)).toMatchObject({
          mandateId: null,
          amount: 500,
          interval: { unit: 'day', count: 14 },
          times: null,
          timesRemaining: null,
          nextPaymentDate: '2026-11-20',
        });
        expect(byId.get(canceled)).toMatchObject({
          status: 'canceled',
          interval: { unit: 'week', count: 2 },
          nextPaymentDate: null,
          canceledAt: expect.any(Date),
        });
        expect(paths('GET')).toEqual([`/v2/customers/${customerId}/subscriptions?limit=250`]);
      },
    );

    it(
      'When one subscription has an interval that cannot be read, ' +
        'then it is listed with the reason and without an interval, and the others are read as usual',
      async () => {
        const { customerId, subscriptionId } = monthlyAtMollie();
        const odd = fake.seedSubscription(customerId, {
          amount: 3000,
          interval: '1 quarter',
          startDate: '2026-10-01',
          description: 'Quarterly',
        });
        const listed = await provider.listSubscriptions(customerId);
        expect(listed.find((s) => s.id === subscriptionId)?.interval).toEqual({ unit: 'month', count: 1 });
        expect(listed.find((s) => s.id === odd)).toMatchObject({
          interval: null,
          intervalText: '1 quarter',
          intervalProblem: 'unreadable interval "1 quarter": Mollie\'s interval is expected as "<n> days", "<n> weeks" or "<n> months"',
        });
      },
    );

    it('When the customer is unknown at Mollie, then not found', async () => {
      await expect(provider.listSubscriptions('cst_unknown000')).rejects.toBeInstanceOf(ProviderNotFoundError);
    });
  });

  describe('cancelSubscription', () => {
    it(
      'When an active subscription is canceled, ' +
        'then Mollie holds it canceled with canceledAt and no next payment date, and its run charges it no more',
      async () => {
        const { customerId, subscriptionId } = monthlyAtMollie();
        const canceled = await provider.cancelSubscription(customerId, subscriptionId);
        expect(canceled).toMatchObject({ id: subscriptionId, status: 'canceled', nextPaymentDate: null, canceledAt: expect.any(Date) });
        expect(fake.subscriptions.get(subscriptionId)).toMatchObject({ status: 'canceled', canceledAt: expect.any(String) });
        expect(fake.subscriptions.get(subscriptionId)).not.toHaveProperty('nextPaymentDate');
        expect(fake.runSubscriptions('2027-03-01')).toEqual([]);
        expect(fake.chargesOf(subscriptionId)).toBe(0);
        const deletes = fake.requests.filter((r) => r.method === 'DELETE');
        expect(deletes.map((r) => [r.path, r.idempotencyKey])).toEqual([
          [`/v2/customers/${customerId}/subscriptions/${subscriptionId}`, `cancel-${subscriptionId}`],
        ]);
      },
    );

    it(
      'When it is canceled twice, also after Mollie forgot the idempotency key (its 422 "has been cancelled"), ' +
        'then both calls answer it canceled',
      async () => {
        const { customerId, subscriptionId } = monthlyAtMollie();
        const first = await provider.cancelSubscription(customerId, subscriptionId);
        // Within the hour: Mollie replays the first answer.
        expect(await provider.cancelSubscription(customerId, subscriptionId)).toEqual(first);
        // Hours later the key is gone and Mollie refuses: the subscription is read and found canceled.
        const later = Date.now() + 2 * 60 * 60 * 1000;
        fake.now = () => later;
        expect(await provider.cancelSubscription(customerId, subscriptionId)).toEqual(first);
        expect(fake.requests.map((r) => `${r.method} ${r.path.replace(/\?.*/, '')}`)).toEqual([
          `DELETE /v2/customers/${customerId}/subscriptions/${subscriptionId}`,
          `DELETE /v2/customers/${customerId}/subscriptions/${subscriptionId}`,
          `DELETE /v2/customers/${customerId}/subscriptions/${subscriptionId}`,
          `GET /v2/customers/${customerId}/subscriptions/${subscriptionId}`,
        ]);
      },
    );

    it(
      'When Mollie cancels it but the answer is lost, ' +
        'then the call fails as "may have reached Mollie", and calling again answers it canceled',
      async () => {
        const { customerId, subscriptionId } = monthlyAtMollie();
        fake.loseAnswers('DELETE', /\/subscriptions\//, 1);
        const lost = await provider.cancelSubscription(customerId, subscriptionId).then(
          () => null,
          (error: unknown) => error,
        );
        expect(lost).toBeInstanceOf(ProviderOutageError);
        expect((lost as ProviderOutageError).mayHaveReachedProvider).toBe(true);
        expect(fake.subscriptions.get(subscriptionId)?.status).toBe('canceled');
        expect(await provider.cancelSubscription(customerId, subscriptionId)).toMatchObject({ id: subscriptionId, status: 'canceled' });
      },
    );

    it('When the answer is lost and the retry comes after Mollie forgot the key, then its 422 is read as done: canceled', async () => {
      const { customerId, subscriptionId } = monthlyAtMollie();
      fake.loseAnswers('DELETE', /\/subscriptions\//, 1);
      await expect(provider.cancelSubscription(customerId, subscriptionId)).rejects.toBeInstanceOf(ProviderOutageError);
      const later = Date.now() + 2 * 60 * 60 * 1000;
      fake.now = () => later;
      expect(await provider.cancelSubscription(customerId, subscriptionId)).toMatchObject({ status: 'canceled' });
      expect(fake.requests.filter((r) => r.method === 'GET')).toHaveLength(1);
    });

    it('When the subscription already completed its charges, then it is answered as it is (it charges no more)', async () => {
      const { customerId, subscriptionId } = monthlyAtMollie({ status: 'completed', timesRemaining: 0, nextPaymentDate: null });
      expect(await provider.cancelSubscription(customerId, subscriptionId)).toMatchObject({ status: 'completed', nextPaymentDate: null });
    });

    it('When Mollie does not know the subscription, then not found', async () => {
      const { customerId } = monthlyAtMollie();
      await expect(provider.cancelSubscription(customerId, 'sub_unknown0000')).rejects.toBeInstanceOf(ProviderNotFoundError);
    });
  });

  describe('listSubscriptionPayments and the fake charging a subscription', () => {
    it(
      "When Mollie's run comes on the next payment date (twice the same day), " +
        'then one payment for the period, listed under the subscription',
      async () => {
        const { customerId, mandateId, subscriptionId } = monthlyAtMollie();
        expect(await provider.listSubscriptionPayments(customerId, subscriptionId)).toEqual([]);
        expect(fake.runSubscriptions('2026-11-30')).toEqual([]);
        expect(fake.runSubscriptions('2026-12-01')).toHaveLength(1);
        expect(fake.runSubscriptions('2026-12-01')).toEqual([]);
        expect(fake.chargesOf(subscriptionId)).toBe(1);
        const payments = await provider.listSubscriptionPayments(customerId, subscriptionId);
        expect(payments).toEqual([
          expect.objectContaining({ status: 'pending', amount: 1250, currency: 'EUR', customerId, mandateId, method: 'directdebit' }),
        ]);
        const [subscription] = await provider.listSubscriptions(customerId);
        expect(subscription).toMatchObject({ nextPaymentDate: '2027-01-01', timesRemaining: 8 });
        expect(paths('GET')).toContain(`/v2/customers/${customerId}/subscriptions/${subscriptionId}/payments?limit=250`);
      },
    );

    it('When periods pass, then one payment per period, newest first; the last one completes the subscription', async () => {
      const { customerId, subscriptionId } = monthlyAtMollie({ timesRemaining: 2, startDate: '2026-01-31', nextPaymentDate: '2026-11-30' });
      fake.runSubscriptions('2027-02-15');
      expect(fake.subscriptionCharges.get(subscriptionId)).toEqual(['2026-11-30', '2026-12-31']);
      const payments = await provider.listSubscriptionPayments(customerId, subscriptionId);
      expect(payments).toHaveLength(2);
      expect(payments.map((payment) => payment.id)).toEqual(
        [...fake.payments.values()]
          .filter((p) => p.subscriptionId === subscriptionId)
          .map((p) => p.id)
          .reverse(),
      );
      const [subscription] = await provider.listSubscriptions(customerId);
      expect(subscription).toMatchObject({ status: 'completed', timesRemaining: 0, nextPaymentDate: null });
    });

    it('When the payments of an unknown subscription are asked for, then not found', async () => {
      const { customerId } = monthlyAtMollie();
      await expect(provider.listSubscriptionPayments(customerId, 'sub_unknown0000')).rejects.toBeInstanceOf(ProviderNotFoundError);
    });
  });
});

describe("Mollie's interval text", () => {
  it.each([
    ['1 month', { unit: 'month', count: 1 }],
    ['3 months', { unit: 'month', count: 3 }],
    ['14 days', { unit: 'day', count: 14 }],
    ['1 day', { unit: 'day', count: 1 }],
    ['2 weeks', { unit: 'week', count: 2 }],
    ['1 week', { unit: 'week', count: 1 }],
  ])('%p is read as %p', (text, interval) => {
    expect(intervalFromMollie(text)).toEqual({ interval });
  });

  it.each(['1 quarter', '0 months', 'monthly', '', '1.5 months', '-1 days', '12'])(
    '%p is refused with the text it could not read',
    (text) => {
      expect(intervalFromMollie(text)).toEqual({ problem: expect.stringContaining(`unreadable interval "${text}"`) });
    },
  );
});
