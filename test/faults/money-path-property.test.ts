import fc from 'fast-check';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES, type TestDatabaseKind } from '../support/databases';
import { MollieFake, REFUSALS } from '../../fakes/mollie/fake';
import { serveWithNock } from '../../fakes/mollie/nock';
import { billableAccountWithToken, mollieCallsWebhook } from '../support/paidCharges';
import { createTestApp, type TestApp } from '../support/testApp';
import { expectCleanAudit } from '../support/audit';

const MINUTE = 60_000;
const PAYMENTS = /^\/v2\/payments/;
const LOOKUPS = /^\/v2\/customers\/[^/]+\/payments/;
/** A Mollie call our client gives up on after this long counts as a timeout (unknown outcome). */
const TIMEOUT_MS = 250;

/**
 * What can happen to the next call to Mollie. `lost`: done, the answer dropped; `unreachable`:
 * not done, the connection fails (as a crash between our row and the call leaves it); `timeout`:
 * done, answered after we gave up; `server error`: three 503s, nothing done; `rate limited`;
 * `look-up refused`: the next search by our id is rate limited; `url changed`: PUBLIC_URL moves,
 * so a resumed key comes with other parameters (400 at Mollie); `crash`: the process restarts.
 */
const FAULTS = [
  'none',
  'lost',
  'unreachable',
  'timeout',
  'server error',
  'rate limited',
  'look-up refused',
  'url changed',
  'crash',
] as const;
/** What the service, its jobs, the clients and Mollie do next. */
const ACTIONS = ['bill', 'follow-ups', 'finish creations', 'reconcile', 'client pays A', 'client pays B', 'Mollie settles'] as const;

type Fault = (typeof FAULTS)[number];
type Action = (typeof ACTIONS)[number];
interface Step {
  fault: Fault;
  action: Action;
  /** Minutes that pass after the step: none, a retry's wait, past Mollie's key window, past a day, past the follow-up's retry days. */
  minutesLater: number;
  /** Whether Mollie's next settling fails the debits (insufficient funds, worth a retry) instead of paying them. */
  debitsFail: boolean;
}

const step: fc.Arbitrary<Step> = fc.record({
  fault: fc.constantFrom(...FAULTS),
  action: fc.constantFrom(...ACTIONS),
  minutesLater: fc.constantFrom(0, 1, 3, 15, 70, 26 * 60, 3 * 24 * 60 + 60),
  debitsFail: fc.boolean(),
});

const RUNS: Record<TestDatabaseKind, number> = { sqlite: 20, mysql: 8 };

/**
 * The money path under any sequence of provider faults: billing, follow-up retries and one-off
 * payments, with lost answers, rate limits, 5xx, timeouts, keys reused with other parameters and
 * crashes between steps. Whatever happens, Mollie never holds two payments for one charge (or one
 * retry, or one client request), and every payment it holds ends attached to exactly one of our rows.
 */
describe.each(TEST_DATABASES)('property: no double charge and no untracked payment under provider faults, on %s', (kind) => {
  it(
    'For any sequence of faults and steps, every payment at Mollie is one of ours, once',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 14 }), async (steps) => {
          const world = await World.start(kind);
          try {
            for (const next of steps) await world.play(next);
            await world.settleEverything();
            await world.expectEveryPaymentOursOnce();
            await world.audit();
          } finally {
            await world.stop();
          }
        }),
        { numRuns: RUNS[kind], seed: Number(process.env.PROPERTY_SEED ?? 19), endOnFailure: true },
      );
    },
    10 * 60_000,
  );
});

/** One service, one Mollie fake, one account with two subscriptions due, and the clock at the first billing day. */
class World {
  private constructor(
    private readonly t: TestApp,
    private readonly fake: MollieFake,
    private readonly served: { stop(): void },
    private readonly accountId: string,
    private readonly token: string,
  ) {}

  static async start(kind: TestDatabaseKind): Promise<World> {
    const t = await createTestApp(kind, { env: { MOLLIE_TIMEOUT_MS: String(TIMEOUT_MS) } });
    t.clock.set('2026-12-01T05:30:00Z');
    const fake = new MollieFake('https://api.mollie.com');
    fake.now = () => t.clock.now().getTime();
    const served = serveWithNock(fake);
    const { accountId, token } = await billableAccountWithToken(t, fake, 2);
    return new World(t, fake, served, accountId, token);
  }

  /** The ledger audit of the world's books and its Mollie: nothing broken, whatever the faults were. */
  audit(): Promise<void> {
    // The audit reads Mollie's payments: faults still waiting for a call are not the books' to answer for.
    this.fake.heal();
    return expectCleanAudit(this.t.ctx);
  }

  async stop(): Promise<void> {
    this.fake.releaseHeld();
    await this.fake.settled();
    this.served.stop();
    await this.t.close();
  }

  async play({ fault, action, minutesLater, debitsFail }: Step): Promise<void> {
    await this.inject(fault);
    await this.perform(action, debitsFail);
    // A timed-out call's answer arrives late, after we gave up: the work was done.
    this.fake.releaseHeld();
    this.t.clock.advance(minutesLater * MINUTE);
  }

  private async inject(fault: Fault): Promise<void> {
    const { fake, t } = this;
    switch (fault) {
      case 'lost':
        return fake.loseAnswers('POST', PAYMENTS, 1);
      case 'unreachable':
        return fake.unreachable('POST', PAYMENTS, 1);
      case 'timeout':
        return fake.holdAnswers('POST', PAYMENTS, 1);
      case 'server error':
        // The client retries a 5xx twice with the same key; Retry-After 0 keeps the test quick.
        return fake.refuse(
          'POST',
          PAYMENTS,
          { status: 503, body: { status: 503, title: 'Service Unavailable', detail: 'try later' }, headers: { 'Retry-After': '0' } },
          3,
        );
      case 'rate limited':
        return fake.refuse('POST', PAYMENTS, REFUSALS.rateLimited(90), 1);
      case 'look-up refused':
        return fake.refuse('GET', LOOKUPS, REFUSALS.rateLimited(30), 1);
      case 'url changed':
        (t.ctx.config as { publicUrl: string }).publicUrl = `https://pay-${t.clock.now().getTime()}.shop.example`;
        return;
      case 'crash': {
        const publicUrl = t.ctx.config.publicUrl;
        await t.restart();
        (t.ctx.config as { publicUrl: string }).publicUrl = publicUrl;
        return;
      }
      case 'none':
        return;
    }
  }

  private async perform(action: Action, debitsFail: boolean): Promise<void> {
    const { t } = this;
    switch (action) {
      case 'bill':
        return this.command('billing', 'run');
      case 'follow-ups':
        return this.command('follow-ups', 'run');
      case 'finish creations':
        return this.command('jobs', 'run', 'finish-provider-creations');
      case 'reconcile':
        return this.command('reconcile');
      case 'client pays A':
      case 'client pays B': {
        const [customer] = await t.ctx.db('customers').where({ account_id: this.accountId }).orderBy('id');
        const order = action.endsWith('A') ? 'A' : 'B';
        const body = {
          amount: order === 'A' ? 25 : 40,
          currency: 'EUR',
          provider_customer_id: customer.provider_customer_id,
          description: `Order ${order}`,
          redirect_url: 'https://shop.example/thanks',
        };
        // Any answer will do (a 502 is retried by a later step with the same key); a 5xx the service made itself would not.
        const res = await t.as(this.token).post('/api/v2/payments', body).set('Idempotency-Key', `order-${order}`);
        expect([201, 409, 422, 502]).toContain(res.status);
        return;
      }
      case 'Mollie settles':
        return this.mollieSettles(debitsFail);
    }
  }

  private async command(...argv: string[]): Promise<void> {
    const run = await cli(this.t.ctx, ...argv);
    expect(run.err.filter((line) => line.startsWith('error:'))).toEqual([]);
  }

  /** The bank answers every open debit and checkout at Mollie, and Mollie calls our webhook for each. */
  private async mollieSettles(debitsFail: boolean): Promise<void> {
    for (const payment of this.fake.payments.values()) {
      if (payment.status !== 'open' && payment.status !== 'pending') continue;
      if (payment.sequenceType === 'recurring' && debitsFail)
        this.fake.setPaymentStatus(String(payment.id), 'failed', { bankReasonCode: 'AM04', bankReason: 'Insufficient funds' });
      else this.fake.setPaymentStatus(String(payment.id), 'paid');
    }
    await this.mollieCallsEveryWebhook();
  }

  private async mollieCallsEveryWebhook(): Promise<void> {
    for (const payment of this.fake.payments.values()) await mollieCallsWebhook(this.t, this.accountId, String(payment.id));
  }

  /** Faults end; the jobs run as time passes, until nothing is left to finish. */
  async settleEverything(): Promise<void> {
    this.fake.heal();
    this.fake.releaseHeld();
    await this.fake.settled();
    for (let round = 0; round < 3; round += 1) {
      this.t.clock.advance(2 * 60 * MINUTE);
      await this.command('jobs', 'run', 'finish-provider-creations');
      await this.command('billing', 'run');
      await this.command('follow-ups', 'run');
      await this.mollieCallsEveryWebhook();
      await this.command('reconcile');
    }
  }

  async expectEveryPaymentOursOnce(): Promise<void> {
    const rows = await this.t.ctx.db('payments').where({ account_id: this.accountId });
    const byId = new Map(rows.map((row) => [String(row.id), row]));
    const atMollie = [...this.fake.payments.values()];
    const references = atMollie.map((payment) => String((payment.metadata as { payment_id?: string } | null)?.payment_id));
    // Every payment Mollie holds carries the id of one of our rows, and that row (only that one) records it.
    for (const [index, payment] of atMollie.entries()) {
      const reference = references[index] as string;
      expect(byId.has(reference)).toBe(true);
      expect(rows.filter((row) => row.provider_payment_id === payment.id).map((row) => row.id)).toEqual([reference]);
    }
    // One payment at Mollie per row, hence per charge, per follow-up retry and per client request
    // (a client's key lives 24 hours: after that, the same key is a new request, and a new payment).
    expect(new Set(references).size).toBe(references.length);
    const ownersOf = (purpose: string) => references.map((reference) => byId.get(reference)).filter((row) => row?.purpose === purpose);
    const charges = ownersOf('charge').map((row) => String(row?.purpose_id));
    expect(new Set(charges).size).toBe(charges.length);
    const retries = ownersOf('follow-up').map((row) => String(row?.origin_key));
    expect(new Set(retries).size).toBe(retries.length);
    // Nothing is left half made: every row is settled at Mollie or given up as certainly not there.
    expect(rows.filter((row) => row.status === 'creating').map((row) => row.id)).toEqual([]);
  }
}
