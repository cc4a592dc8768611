import { randomBytes } from 'node:crypto';

/**
 * An in-process model of the part of Mollie's API v2 the service uses, faithful where the money path
 * depends on it: objects with ids, metadata and creation times; newest-first lists with `next` links;
 * the `Idempotency-Key` header (the first answer replayed for one hour, 409 while the first request
 * is in progress, 400 for other parameters). And what the real network does to answers: a fault can
 * LOSE answers (the work is done at "Mollie", the connection is dropped) or HOLD them (the work is
 * done, the answer waits until released — or until the caller is killed).
 *
 * Transports: nock.ts serves it to a service in the test process, https.ts to a service started as
 * a child process. Both call `handle`.
 */

export interface FakeRequest {
  method: string;
  /** Path and query as sent, e.g. `/v2/customers/cst_1/payments?limit=250`. */
  path: string;
  idempotencyKey: string | undefined;
  body: Record<string, unknown>;
}

export type FakeAnswer = { status: number; body: unknown; headers?: Record<string, string> } | { lost: true };

interface Fault {
  method: string;
  path: RegExp;
  /**
   * lose: done, answer dropped; hold: done, answer waits; stall: not done, waits (then dropped, never done);
   * unreachable: not done, connection fails; refuse: not done, `answer` given.
   */
  kind: 'lose' | 'hold' | 'stall' | 'unreachable' | 'refuse';
  remaining: number;
  answer?: { status: number; body: unknown; headers?: Record<string, string> };
}

/** How Mollie refuses a request without doing it: a rate limit, credentials, an idempotency key reused with other parameters. */
export const REFUSALS = {
  rateLimited: (retryAfterSeconds: number) => ({
    ...error(429, 'Too many requests, slow down'),
    headers: { 'Retry-After': String(retryAfterSeconds) },
  }),
  unauthorized: () => error(401, 'Missing authentication, or failed to authenticate'),
  keyReused: () => error(400, 'The idempotency key was used with other parameters'),
};

interface Held {
  request: FakeRequest;
  release: () => void;
}

type JsonObject = Record<string, unknown>;

/** Mollie keeps an idempotency key's first answer this long. */
const IDEMPOTENCY_WINDOW_MS = 60 * 60 * 1000;

const centsOf = (value: string) => Math.round(Number(value) * 100);

const newId = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

/** A repeatable stream of numbers in [0, 1) (mulberry32): the same faults in every run of a test. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

interface Flakiness {
  method: string;
  path: RegExp;
  /** Share of requests answered 503 without being done. */
  serverErrors: number;
  /** Share of requests done but answered only after `lateByMs` (past the caller's timeout). */
  timeouts: number;
  lateByMs: number;
  random: () => number;
}

/** A payment method the fake's profile has enabled, with its amounts (decimal strings, as Mollie writes them). */
export interface FakeMethod {
  id: string;
  minimum: string;
  /** null: Mollie names no maximum. */
  maximum: string | null;
  /** The currencies it takes; its amounts are the same numbers in each. */
  currencies: string[];
  sequenceTypes: Array<'oneoff' | 'first' | 'recurring'>;
}

export class MollieFake {
  /** The profile's enabled methods (`GET /v2/methods`, `GET /v2/methods/{id}?currency=`); tests change them. */
  methods: FakeMethod[] = [
    { id: 'ideal', minimum: '0.01', maximum: '50000.00', currencies: ['EUR'], sequenceTypes: ['oneoff', 'first'] },
    {
      id: 'creditcard',
      minimum: '0.01',
      maximum: '10000.00',
      currencies: ['EUR', 'USD', 'GBP'],
      sequenceTypes: ['oneoff', 'first', 'recurring'],
    },
    { id: 'directdebit', minimum: '0.01', maximum: '1000.00', currencies: ['EUR'], sequenceTypes: ['recurring'] },
  ];
  readonly customers = new Map<string, JsonObject>();
  readonly payments = new Map<string, JsonObject>();
  readonly mandates = new Map<string, JsonObject>();
  /** Refunds by id (`re_…`), each with its `paymentId`; statuses queued, pending, processing, refunded, failed, canceled. */
  readonly refunds = new Map<string, JsonObject>();
  /** Subscriptions Mollie bills itself (its Subscriptions API), seeded by tests with `seedSubscription`. */
  readonly subscriptions = new Map<string, JsonObject>();
  /** Per subscription, the dates of the periods Mollie charged (one entry per recurring payment it made). */
  readonly subscriptionCharges = new Map<string, string[]>();
  /** Every revocation asked for, in order (a mandate revoked twice is here twice). */
  readonly revokedMandates: string[] = [];
  /** Every request that reached the fake, in order (lost and held ones included). */
  readonly requests: FakeRequest[] = [];
  readonly held: Held[] = [];
  private readonly keys = new Map<string, { at: number; fingerprint: string; answer: { status: number; body: unknown } | 'running' }>();
  private faults: Fault[] = [];
  private flakiness: Flakiness[] = [];
  private readonly late = new Set<Promise<void>>();
  /** How many requests the flaky faults hit. */
  readonly faultsDone = { serverErrors: 0, timeouts: 0 };
  private heldWaiters: Array<() => void> = [];
  /** The fake's own clock: tests move it to let idempotency keys expire. */
  now = () => Date.now();

  /** `baseUrl` is where the fake is reached, for the `_links` it writes (`https://api.mollie.com`). */
  constructor(public baseUrl: string) {}

  /** The answers to the next `times` requests matching method and path are lost after the work is done. */
  loseAnswers(method: string, path: RegExp, times = Number.POSITIVE_INFINITY): void {
    this.faults.push({ method, path, kind: 'lose', remaining: times });
  }

  /** The answers to the next `times` matching requests wait (the work done) until `releaseHeld()`. */
  holdAnswers(method: string, path: RegExp, times = Number.POSITIVE_INFINITY): void {
    this.faults.push({ method, path, kind: 'hold', remaining: times });
  }

  /**
   * The next `times` matching requests wait before they are done (counted in `held`), as a request still on
   * its way when its caller is killed: released, they are dropped without being done.
   */
  stallRequests(method: string, path: RegExp, times = Number.POSITIVE_INFINITY): void {
    this.faults.push({ method, path, kind: 'stall', remaining: times });
  }

  /** The next `times` matching requests never arrive: nothing is done and the connection fails. */
  unreachable(method: string, path: RegExp, times = Number.POSITIVE_INFINITY): void {
    this.faults.push({ method, path, kind: 'unreachable', remaining: times });
  }

  /** The next `times` matching requests are refused with `answer` (see REFUSALS) and nothing is done. */
  refuse(
    method: string,
    path: RegExp,
    answer: { status: number; body: unknown; headers?: Record<string, string> },
    times = Number.POSITIVE_INFINITY,
  ): void {
    this.faults.push({ method, path, kind: 'refuse', remaining: times, answer });
  }

  /** Ends every fault; held answers stay held until released. */
  heal(): void {
    this.faults = [];
  }

  releaseHeld(): void {
    for (const held of this.held.splice(0)) held.release();
  }

  /** Resolves once `count` answers are being held: the work of those requests is done. */
  async untilHeld(count = 1): Promise<void> {
    while (this.held.length < count) await new Promise<void>((resolve) => this.heldWaiters.push(resolve));
  }

  /** Lets a payment move on as if the payer acted (or the bank answered). */
  setPaymentStatus(id: string, status: string, details?: JsonObject): void {
    const payment = this.payments.get(id);
    if (!payment) throw new Error(`no payment ${id} at the fake`);
    payment.status = status;
    // How Mollie tells why: SEPA `bankReasonCode`/`bankReason`, cards `failureReason`/`failureMessage`.
    if (details) payment.details = { ...((payment.details as JsonObject | null) ?? {}), ...details };
    if (status === 'paid') payment.paidAt = new Date(this.now()).toISOString();
  }

  /**
   * The payer's bank takes the money of a paid payment back (a SEPA reversal, a card chargeback):
   * all of it, or `cents` of it (a partial chargeback: Mollie keeps the payment `paid`).
   */
  chargeBack(id: string, cents?: number): void {
    const payment = this.payments.get(id);
    if (!payment) throw new Error(`no payment ${id} at the fake`);
    const amount = payment.amount as { value: string; currency: string };
    payment.amountChargedBack = cents === undefined ? amount : { value: (cents / 100).toFixed(2), currency: amount.currency };
  }

  /**
   * A refund moves on at Mollie (`refunded` when the money went out, `failed`, `canceled`); the payment's
   * amountRefunded counts refunds that are not failed or canceled, as Mollie's does.
   */
  setRefundStatus(id: string, status: 'queued' | 'pending' | 'processing' | 'refunded' | 'failed' | 'canceled'): void {
    const refund = this.refunds.get(id);
    if (!refund) throw new Error(`no refund ${id} at the fake`);
    refund.status = status;
    this.countRefunds(String(refund.paymentId));
  }

  /**
   * Someone refunds `cents` of a paid payment in the Mollie dashboard: a refund without our metadata, as Mollie
   * makes it there (`pending` at first, or `status`); the payment's amountRefunded counts it.
   */
  refundInDashboard(paymentId: string, cents: number, status: 'pending' | 'refunded' = 'pending'): JsonObject {
    const payment = this.payments.get(paymentId);
    if (!payment) throw new Error(`no payment ${paymentId} at the fake`);
    const id = newId('re');
    const refund: JsonObject = {
      resource: 'refund',
      id,
      mode: 'test',
      amount: { value: (cents / 100).toFixed(2), currency: (payment.amount as { currency: string }).currency },
      description: 'Refund from the dashboard',
      metadata: null,
      status,
      paymentId,
      createdAt: new Date(this.now()).toISOString(),
      _links: this.links(`/v2/payments/${paymentId}/refunds/${id}`),
    };
    this.refunds.set(id, refund);
    this.countRefunds(paymentId);
    return refund;
  }

  refundsOf(paymentId: string): JsonObject[] {
    return [...this.refunds.values()].filter((refund) => refund.paymentId === paymentId);
  }

  private countRefunds(paymentId: string): void {
    const payment = this.payments.get(paymentId);
    if (!payment) return;
    const amount = payment.amount as { value: string; currency: string };
    const cents = this.refundsOf(paymentId)
      .filter((refund) => refund.status !== 'failed' && refund.status !== 'canceled')
      .reduce((sum, refund) => sum + Math.round(Number((refund.amount as { value: string }).value) * 100), 0);
    payment.amountRefunded = { value: (cents / 100).toFixed(2), currency: amount.currency };
    payment.amountRemaining = { value: ((centsOf(amount.value) - cents) / 100).toFixed(2), currency: amount.currency };
  }

  /** Mollie refunds a paid payment up to what remains; more, or of an unpaid payment, is a 422. */
  private createRefund(paymentId: string, body: Record<string, unknown>): { status: number; body: unknown } {
    const payment = this.payments.get(paymentId);
    if (!payment) return error(404, `No payment exists with token ${paymentId}.`);
    if (payment.status !== 'paid') return error(422, 'The payment cannot be refunded');
    const amount = body.amount as { value?: unknown; currency?: unknown } | undefined;
    if (!amount || typeof amount.value !== 'string') return error(422, 'The amount is invalid', 'amount');
    const paid = centsOf((payment.amount as { value: string }).value);
    const taken = this.refundsOf(paymentId)
      .filter((refund) => refund.status !== 'failed' && refund.status !== 'canceled')
      .reduce((sum, refund) => sum + centsOf((refund.amount as { value: string }).value), 0);
    const chargedBack = payment.amountChargedBack ? centsOf((payment.amountChargedBack as { value: string }).value) : 0;
    if (centsOf(amount.value) > paid - taken - chargedBack)
      return error(422, 'The amount is higher than the amount that can be refunded', 'amount');
    const id = newId('re');
    const refund: JsonObject = {
      resource: 'refund',
      id,
      mode: 'test',
      amount: { value: amount.value, currency: amount.currency ?? 'EUR' },
      description: body.description ?? '',
      metadata: body.metadata ?? null,
      status: 'pending',
      paymentId,
      createdAt: new Date(this.now()).toISOString(),
      _links: {
        ...this.links(`/v2/payments/${paymentId}/refunds/${id}`),
        payment: { href: `${this.baseUrl}/v2/payments/${paymentId}`, type: 'application/hal+json' },
      },
    };
    this.refunds.set(id, refund);
    this.countRefunds(paymentId);
    return { status: 201, body: refund };
  }

  /** The payer completes a first payment by card: Mollie makes a valid card mandate for later charges. */
  payFirstPayment(id: string): string {
    const payment = this.payments.get(id);
    if (!payment || payment.sequenceType !== 'first' || typeof payment.customerId !== 'string')
      throw new Error(`no first payment ${id} with a customer`);
    const mandateId = newId('mdt');
    this.mandates.set(mandateId, {
      resource: 'mandate',
      id: mandateId,
      mode: 'test',
      status: 'valid',
      method: 'creditcard',
      details: {
        cardHolder: 'A. de Vries',
        cardNumber: '6787',
        cardLabel: 'Mastercard',
        cardFingerprint: 'fp_1',
        cardExpiryDate: '2030-12-31',
      },
      mandateReference: null,
      signatureDate: new Date(this.now()).toISOString().slice(0, 10),
      createdAt: new Date(this.now()).toISOString(),
      customerId: payment.customerId,
      _links: this.links(`/v2/customers/${payment.customerId}/mandates/${mandateId}`),
    });
    payment.mandateId = mandateId;
    payment.method = 'creditcard';
    this.setPaymentStatus(id, 'paid');
    return mandateId;
  }

  /** The mandate's state changes at Mollie (pending → valid, or invalid: revoked, or refused by the bank). */
  setMandateStatus(id: string, status: 'valid' | 'pending' | 'invalid'): void {
    const mandate = this.mandates.get(id);
    if (!mandate) throw new Error(`no mandate ${id} at the fake`);
    mandate.status = status;
  }

  /** A customer made at "Mollie" without a request (as one made in the dashboard or by another integration). */
  seedCustomer(fields: { name?: string; email?: string; metadata?: JsonObject } = {}): string {
    return String(this.createCustomer({ name: fields.name ?? null, email: fields.email ?? null, metadata: fields.metadata ?? null }).id);
  }

  /**
   * A subscription Mollie bills itself, as made through its Subscriptions API by another integration. `amount`
   * in cents; `interval` Mollie's text ("1 month", "14 days"); `times` null for one without end. Without
   * `nextPaymentDate` the next charge is on `startDate`.
   */
  seedSubscription(
    customerId: string,
    fields: {
      amount: number;
      interval: string;
      startDate: string;
      description: string;
      currency?: string;
      times?: number | null;
      timesRemaining?: number | null;
      nextPaymentDate?: string | null;
      mandateId?: string | null;
      status?: 'pending' | 'active' | 'canceled' | 'suspended' | 'completed';
      metadata?: JsonObject | null;
    },
  ): string {
    if (!this.customers.has(customerId)) throw new Error(`no customer ${customerId} at the fake`);
    const id = newId('sub');
    const times = fields.times ?? null;
    const status = fields.status ?? 'active';
    const nextPaymentDate = fields.nextPaymentDate === undefined ? fields.startDate : fields.nextPaymentDate;
    const subscription: JsonObject = {
      resource: 'subscription',
      id,
      mode: 'test',
      createdAt: new Date(this.now()).toISOString(),
      status,
      amount: { currency: fields.currency ?? 'EUR', value: (fields.amount / 100).toFixed(2) },
      times,
      timesRemaining: fields.timesRemaining === undefined ? times : fields.timesRemaining,
      interval: fields.interval,
      startDate: fields.startDate,
      // Mollie leaves the field out when no payment will follow.
      ...(nextPaymentDate && (status === 'active' || status === 'pending' || status === 'suspended') ? { nextPaymentDate } : {}),
      description: fields.description,
      method: null,
      ...(fields.mandateId ? { mandateId: fields.mandateId } : {}),
      webhookUrl: '',
      metadata: fields.metadata ?? null,
      customerId,
      ...(status === 'canceled' ? { canceledAt: new Date(this.now()).toISOString() } : {}),
      _links: {
        ...this.links(`/v2/customers/${customerId}/subscriptions/${id}`),
        customer: { href: `${this.baseUrl}/v2/customers/${customerId}`, type: 'application/hal+json' },
        ...(fields.mandateId
          ? { mandate: { href: `${this.baseUrl}/v2/customers/${customerId}/mandates/${fields.mandateId}`, type: 'application/hal+json' } }
          : {}),
      },
    };
    this.subscriptions.set(id, subscription);
    this.subscriptionCharges.set(id, []);
    return id;
  }

  /**
   * Mollie's daily run on `date` (YYYY-MM-DD): every active subscription whose next payment date has come is
   * charged, one recurring payment per period (catching up on periods passed), its next date moved one
   * interval on and `timesRemaining` counted down (completed after the last). A canceled subscription is
   * never charged. Answers the payments made.
   */
  runSubscriptions(date: string): JsonObject[] {
    const made: JsonObject[] = [];
    for (const subscription of this.subscriptions.values()) {
      while (subscription.status === 'active' && typeof subscription.nextPaymentDate === 'string' && subscription.nextPaymentDate <= date) {
        made.push(this.chargePeriod(subscription, subscription.nextPaymentDate));
      }
    }
    return made;
  }

  /** How many recurring payments Mollie made for the subscription. */
  chargesOf(subscriptionId: string): number {
    return this.subscriptionCharges.get(subscriptionId)?.length ?? 0;
  }

  private chargePeriod(subscription: JsonObject, date: string): JsonObject {
    const id = newId('tr');
    const subscriptionId = String(subscription.id);
    const customerId = String(subscription.customerId);
    const payment: JsonObject = {
      resource: 'payment',
      id,
      mode: 'test',
      createdAt: new Date(this.now()).toISOString(),
      amount: subscription.amount,
      description: subscription.description,
      method: 'directdebit',
      // Mollie forwards the subscription's metadata to its payments.
      metadata: subscription.metadata ?? null,
      status: 'pending',
      isCancelable: true,
      profileId: 'pfl_QkEhN94Ba',
      customerId,
      mandateId: subscription.mandateId ?? null,
      subscriptionId,
      sequenceType: 'recurring',
      redirectUrl: null,
      webhookUrl: null,
      _links: this.links(`/v2/payments/${id}`),
    };
    this.payments.set(id, payment);
    this.subscriptionCharges.get(subscriptionId)?.push(date);
    const remaining = typeof subscription.timesRemaining === 'number' ? subscription.timesRemaining - 1 : null;
    subscription.timesRemaining = remaining;
    if (remaining !== null && remaining <= 0) {
      subscription.status = 'completed';
      delete subscription.nextPaymentDate;
    } else {
      subscription.nextPaymentDate = nextDate(date, String(subscription.interval), Number(String(subscription.startDate).slice(8, 10)));
    }
    subscription._links = {
      ...(subscription._links as JsonObject),
      payments: {
        href: `${this.baseUrl}/v2/customers/${customerId}/subscriptions/${subscriptionId}/payments`,
        type: 'application/hal+json',
      },
    };
    return payment;
  }

  paymentsWithReference(reference: string): JsonObject[] {
    return [...this.payments.values()].filter((payment) => (payment.metadata as JsonObject | null)?.payment_id === reference);
  }

  customersWithReference(reference: string): JsonObject[] {
    return [...this.customers.values()].filter((customer) => (customer.metadata as JsonObject | null)?.customer_id === reference);
  }

  /**
   * From now on, matching requests fail at random: `serverErrors` of them with a 503 and nothing
   * done, `timeouts` of them done but answered `lateByMs` later (after the caller gave up).
   */
  flaky(method: string, path: RegExp, options: Omit<Flakiness, 'method' | 'path'>): void {
    this.flakiness.push({ method, path, ...options });
  }

  /** Resolves once every late answer has been sent (or dropped). */
  async settled(): Promise<void> {
    while (this.late.size) await Promise.all([...this.late]);
  }

  async handle(request: FakeRequest): Promise<FakeAnswer> {
    this.requests.push(request);
    const flaky = this.flakiness.find((candidate) => candidate.method === request.method && candidate.path.test(request.path));
    if (flaky) {
      const draw = flaky.random();
      if (draw < flaky.serverErrors) {
        this.faultsDone.serverErrors += 1;
        // The client retries a 5xx itself, after Retry-After (2 s without one). Told 0, its retries end
        // within the call; a 2 s one could outlive our timeout and the test, and land in the next file's fake.
        return { ...error(503, 'Service temporarily unavailable'), headers: { 'Retry-After': '0' } };
      }
      if (draw < flaky.serverErrors + flaky.timeouts) {
        this.faultsDone.timeouts += 1;
        const answer = this.idempotent(request);
        const wait = new Promise<void>((resolve) => setTimeout(resolve, flaky.lateByMs));
        this.late.add(wait);
        await wait;
        this.late.delete(wait);
        return answer;
      }
    }
    const fault = this.faults.find(
      (candidate) => candidate.method === request.method && candidate.path.test(request.path) && candidate.remaining > 0,
    );
    if (fault) fault.remaining -= 1;
    if (fault?.kind === 'unreachable') return { lost: true };
    if (fault?.kind === 'refuse' && fault.answer) return fault.answer;
    if (fault?.kind === 'stall') {
      await this.waitHeld(request);
      return { lost: true };
    }
    const answer = this.idempotent(request);
    if (fault?.kind === 'lose') return { lost: true };
    if (fault?.kind === 'hold') await this.waitHeld(request);
    return answer;
  }

  private waitHeld(request: FakeRequest): Promise<void> {
    return new Promise<void>((release) => {
      this.held.push({ request, release });
      for (const wake of this.heldWaiters.splice(0)) wake();
    });
  }

  /** Mollie's idempotency: the same key within the hour answers the first answer again. */
  private idempotent(request: FakeRequest): { status: number; body: unknown } {
    if (request.method !== 'POST' && request.method !== 'DELETE') return this.route(request);
    if (!request.idempotencyKey) return this.route(request);
    const fingerprint = `${request.method} ${request.path} ${JSON.stringify(request.body)}`;
    const known = this.keys.get(request.idempotencyKey);
    if (known && this.now() - known.at < IDEMPOTENCY_WINDOW_MS) {
      if (known.fingerprint !== fingerprint) return error(400, 'The idempotency key was used with other parameters');
      if (known.answer === 'running') return error(409, 'A request with this idempotency key is in progress');
      return known.answer;
    }
    this.keys.set(request.idempotencyKey, { at: this.now(), fingerprint, answer: 'running' });
    const answer = this.route(request);
    // Mollie keeps successful answers; a failed request may be tried again with the same key.
    if (answer.status < 300) this.keys.set(request.idempotencyKey, { at: this.now(), fingerprint, answer });
    else this.keys.delete(request.idempotencyKey);
    return answer;
  }

  private route(request: FakeRequest): { status: number; body: unknown } {
    const url = new URL(request.path, 'https://fake.invalid');
    const parts = url.pathname.split('/').filter(Boolean); // ['v2', 'payments', 'tr_…']
    const [, resource, id, sub, subId, subSub] = parts;
    const key =
      `${request.method} ${resource}${id ? '/:id' : ''}${sub ? `/${sub}` : ''}` + `${subId ? '/:id' : ''}${subSub ? `/${subSub}` : ''}`;
    switch (key) {
      case 'POST customers':
        return { status: 201, body: this.createCustomer(request.body) };
      case 'GET customers':
        return { status: 200, body: this.list('customers', [...this.customers.values()], url) };
      case 'GET customers/:id':
        return this.found(this.customers, id);
      case 'POST payments':
        return this.createPayment(request.body);
      case 'GET payments':
        return { status: 200, body: this.list('payments', [...this.payments.values()], url) };
      case 'GET payments/:id':
        return this.found(this.payments, id);
      case 'DELETE payments/:id':
        return this.cancelPayment(id ?? '');
      case 'POST payments/:id/refunds':
        return this.createRefund(id ?? '', request.body);
      case 'GET payments/:id/refunds':
        if (!id || !this.payments.has(id)) return error(404, `No payment exists with token ${id}.`);
        return { status: 200, body: this.list('refunds', this.refundsOf(id), url) };
      case 'GET payments/:id/refunds/:id': {
        const refund = subId ? this.refunds.get(subId) : undefined;
        return refund && refund.paymentId === id ? { status: 200, body: refund } : error(404, `No refund exists with token ${subId}.`);
      }
      case 'GET customers/:id/payments':
        return {
          status: 200,
          body: this.list(
            'payments',
            [...this.payments.values()].filter((p) => p.customerId === id),
            url,
          ),
        };
      case 'POST customers/:id/mandates':
        return this.createMandate(id ?? '', request.body);
      case 'GET customers/:id/mandates':
        return {
          status: 200,
          body: this.list(
            'mandates',
            [...this.mandates.values()].filter((m) => m.customerId === id),
            url,
          ),
        };
      case 'GET customers/:id/mandates/:id':
        return this.found(this.mandates, subId);
      case 'DELETE customers/:id/mandates/:id':
        return this.revokeMandate(id ?? '', subId ?? '');
      case 'GET customers/:id/subscriptions':
        if (!id || !this.customers.has(id)) return error(404, `No customer exists with token ${id}.`);
        return {
          status: 200,
          body: this.list(
            'subscriptions',
            [...this.subscriptions.values()].filter((s) => s.customerId === id),
            url,
          ),
        };
      case 'GET customers/:id/subscriptions/:id':
        return this.subscriptionOf(id, subId) ? { status: 200, body: this.subscriptionOf(id, subId) } : noSubscription(subId);
      case 'DELETE customers/:id/subscriptions/:id':
        return this.cancelSubscription(id, subId);
      case 'GET customers/:id/subscriptions/:id/payments':
        if (!this.subscriptionOf(id, subId)) return noSubscription(subId);
        return {
          status: 200,
          body: this.list(
            'payments',
            [...this.payments.values()].filter((p) => p.subscriptionId === subId),
            url,
          ),
        };
      case 'GET methods': {
        const sequenceType = url.searchParams.get('sequenceType') ?? 'oneoff';
        const methods = this.methods.filter((method) => method.sequenceTypes.some((type) => type === sequenceType));
        return { status: 200, body: { count: methods.length, _embedded: { methods: methods.map((m) => this.methodIn(m, 'EUR')) } } };
      }
      case 'GET methods/:id': {
        const method = this.methods.find((candidate) => candidate.id === id);
        if (!method) return error(404, `No method exists with id ${id}.`);
        const currency = url.searchParams.get('currency') ?? 'EUR';
        // Mollie: "An error is returned if the currency is not supported by the payment method."
        if (!method.currencies.includes(currency)) return error(422, `The currency ${currency} is not supported by ${id}`, 'currency');
        return { status: 200, body: this.methodIn(method, currency) };
      }
      default:
        return error(404, `The fake does not know ${request.method} ${url.pathname}`);
    }
  }

  private methodIn(method: FakeMethod, currency: string): JsonObject {
    return {
      resource: 'method',
      id: method.id,
      description: method.id,
      minimumAmount: { value: method.minimum, currency },
      maximumAmount: method.maximum === null ? null : { value: method.maximum, currency },
      status: 'activated',
      _links: this.links(`/v2/methods/${method.id}`),
    };
  }

  private links(path: string): JsonObject {
    return { self: { href: `${this.baseUrl}${path}`, type: 'application/hal+json' } };
  }

  private found(map: Map<string, JsonObject>, id: string | undefined): { status: number; body: unknown } {
    const object = id ? map.get(id) : undefined;
    return object ? { status: 200, body: object } : error(404, `No object with id ${id}`);
  }

  private createCustomer(body: Record<string, unknown>): JsonObject {
    const id = newId('cst');
    const customer = {
      resource: 'customer',
      id,
      mode: 'test',
      name: body.name ?? null,
      email: body.email ?? null,
      locale: body.locale ?? null,
      metadata: body.metadata ?? null,
      createdAt: new Date(this.now()).toISOString(),
      _links: this.links(`/v2/customers/${id}`),
    };
    this.customers.set(id, customer);
    return customer;
  }

  private createPayment(body: Record<string, unknown>): { status: number; body: unknown } {
    const customerId = typeof body.customerId === 'string' ? body.customerId : null;
    if (customerId && !this.customers.has(customerId)) return error(422, 'The customer id is invalid', 'customerId');
    const id = newId('tr');
    const recurring = body.sequenceType === 'recurring';
    const payment: JsonObject = {
      resource: 'payment',
      id,
      mode: 'test',
      createdAt: new Date(this.now()).toISOString(),
      amount: body.amount,
      description: body.description,
      method: body.method ?? (recurring ? 'directdebit' : null),
      metadata: body.metadata ?? null,
      status: recurring ? 'pending' : 'open',
      isCancelable: true,
      profileId: 'pfl_QkEhN94Ba',
      customerId,
      mandateId: body.mandateId ?? null,
      sequenceType: body.sequenceType ?? 'oneoff',
      redirectUrl: body.redirectUrl ?? null,
      webhookUrl: body.webhookUrl ?? null,
      _links: {
        ...this.links(`/v2/payments/${id}`),
        ...(recurring ? {} : { checkout: { href: `https://www.mollie.com/checkout/select-method/${id.slice(3)}`, type: 'text/html' } }),
      },
    };
    this.payments.set(id, payment);
    return { status: 201, body: payment };
  }

  /** Mollie revokes a mandate (it becomes invalid); a revoked one again is the same 204. */
  private revokeMandate(customerId: string, id: string): { status: number; body: unknown } {
    const mandate = this.mandates.get(id);
    if (!mandate || mandate.customerId !== customerId) return error(404, `No mandate with id ${id}`);
    mandate.status = 'invalid';
    this.revokedMandates.push(id);
    return { status: 204, body: '' };
  }

  private subscriptionOf(customerId: string | undefined, id: string | undefined): JsonObject | null {
    const subscription = id ? this.subscriptions.get(id) : undefined;
    return subscription && subscription.customerId === customerId ? subscription : null;
  }

  /**
   * Mollie cancels an active (or pending, suspended) subscription: status `canceled`, `canceledAt`, no next
   * payment date. One already canceled, or completed, is refused with a 422 (Mollie: "The subscription has
   * been cancelled."); one it does not know is a 404.
   */
  private cancelSubscription(customerId: string | undefined, id: string | undefined): { status: number; body: unknown } {
    const subscription = this.subscriptionOf(customerId, id);
    if (!subscription) return noSubscription(id);
    if (subscription.status === 'canceled') return error(422, 'The subscription has been cancelled.');
    if (subscription.status === 'completed') return error(422, 'The subscription has been completed.');
    subscription.status = 'canceled';
    subscription.canceledAt = new Date(this.now()).toISOString();
    delete subscription.nextPaymentDate;
    return { status: 200, body: subscription };
  }

  private cancelPayment(id: string): { status: number; body: unknown } {
    const payment = this.payments.get(id);
    if (!payment) return error(404, `No payment with id ${id}`);
    if (payment.status !== 'open' && payment.status !== 'pending') return error(422, 'The payment cannot be canceled');
    payment.status = 'canceled';
    return { status: 200, body: payment };
  }

  private createMandate(customerId: string, body: Record<string, unknown>): { status: number; body: unknown } {
    if (!this.customers.has(customerId)) return error(404, `No customer with id ${customerId}`);
    const id = newId('mdt');
    const mandate = {
      resource: 'mandate',
      id,
      mode: 'test',
      status: 'valid',
      method: 'directdebit',
      details: { consumerName: body.consumerName, consumerAccount: body.consumerAccount, consumerBic: body.consumerBic ?? null },
      mandateReference: body.mandateReference ?? null,
      signatureDate: body.signatureDate ?? null,
      createdAt: new Date(this.now()).toISOString(),
      customerId,
      _links: this.links(`/v2/customers/${customerId}/mandates/${id}`),
    };
    this.mandates.set(id, mandate);
    return { status: 201, body: mandate };
  }

  /** Newest first, `limit` per page (Mollie's default 50, at most 250), `from` an id to start at. */
  private list(name: string, objects: JsonObject[], url: URL): JsonObject {
    const newestFirst = [...objects].reverse();
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 50), 250);
    const from = url.searchParams.get('from');
    const start = from
      ? Math.max(
          0,
          newestFirst.findIndex((object) => object.id === from),
        )
      : 0;
    const page = newestFirst.slice(start, start + limit);
    const next = newestFirst[start + limit];
    const pageUrl = (id: string) => {
      const copy = new URL(url.toString());
      copy.searchParams.set('from', id);
      copy.searchParams.set('limit', String(limit));
      return `${this.baseUrl}${copy.pathname}${copy.search}`;
    };
    return {
      count: page.length,
      _embedded: { [name]: page },
      _links: {
        self: { href: `${this.baseUrl}${url.pathname}${url.search}`, type: 'application/hal+json' },
        previous: null,
        next: next ? { href: pageUrl(String(next.id)), type: 'application/hal+json' } : null,
        documentation: { href: 'https://docs.mollie.com/reference/v2', type: 'text/html' },
      },
    };
  }
}

const TITLES: Record<number, string> = {
  401: 'Unauthorized Request',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

function noSubscription(id: string | undefined): { status: number; body: unknown } {
  return error(404, `No subscription exists with token ${id}.`);
}

const INTERVAL = /^(\d+) (day|days|week|weeks|month|months)$/;

/** The date one interval after `date` (YYYY-MM-DD); months keep the start date's day, clamped to the month's end. */
function nextDate(date: string, interval: string, anchorDay: number): string {
  const match = INTERVAL.exec(interval);
  if (!match) throw new Error(`the fake cannot bill the interval "${interval}"`);
  const count = Number(match[1]);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  if ((match[2] ?? '').startsWith('month')) {
    const index = year * 12 + (month - 1) + count;
    const [nextYear, nextMonth] = [Math.floor(index / 12), (index % 12) + 1];
    const lastDay = new Date(Date.UTC(nextYear, nextMonth, 0)).getUTCDate();
    return new Date(Date.UTC(nextYear, nextMonth - 1, Math.min(anchorDay, lastDay))).toISOString().slice(0, 10);
  }
  const days = (match[2] ?? '').startsWith('week') ? count * 7 : count;
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

function error(status: number, detail: string, field?: string): { status: number; body: unknown } {
  return {
    status,
    body: {
      status,
      title: TITLES[status] ?? 'Bad Request',
      detail,
      ...(field ? { field } : {}),
      _links: { documentation: { href: 'https://docs.mollie.com/overview/handling-errors', type: 'text/html' } },
    },
  };
}
