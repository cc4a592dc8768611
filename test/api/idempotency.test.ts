import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import request from 'supertest';
import { ProviderUnavailableError } from '../../src/errors';
import * as productPresenter from '../../src/modules/products/presenter';
import { ProviderRejectedError } from '../../src/providers/errors';
import type { PaymentProvider } from '../../src/providers';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const DAY_MS = 24 * 60 * 60 * 1000;

type CreatePayment = PaymentProvider['createPayment'];

describe.each(TEST_DATABASES)('Idempotency-Key on %s', (kind) => {
  const t = useTestApp(kind);
  let keyCounter = 0;

  const newKey = () => {
    keyCounter += 1;
    return `key-${kind}-${keyCounter}-7f3c2a9e`;
  };

  const validCustomer = { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' };

  const postWithKey = (token: string, path: string, body: unknown, key: string) => t.as(token).post(path, body).set('Idempotency-Key', key);

  async function countOf(table: string, accountId: string): Promise<number> {
    const [row] = await t.ctx.db(table).where({ account_id: accountId }).count({ n: '*' });
    return Number(row?.n);
  }

  async function keyRowOf(accountId: string, key: string) {
    return t.ctx.db('idempotency_keys').where({ account_id: accountId, idempotency_key: key }).first();
  }

  /**
   * A POST written byte by byte on a socket, the key in latin1: the HTTP client in a jest worker may be
   * wrapped by nock interceptors left by other files, which re-encode non-ASCII header values.
   */
  async function rawPostWithKey(token: string, path: string, body: unknown, key: string): Promise<{ status: number; body: unknown }> {
    const server = t.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      const payload = JSON.stringify(body);
      const head = [
        `POST ${path} HTTP/1.1`,
        'Host: 127.0.0.1',
        'Connection: close',
        `Authorization: Bearer ${token}`,
        'Content-Type: application/json',
      ];
      head.push(`Content-Length: ${Buffer.byteLength(payload)}`, `Idempotency-Key: ${key}`);
      // write, not end: a half-closed socket makes the server drop the request; Connection: close ends it.
      socket.write(Buffer.from(`${head.join('\r\n')}\r\n\r\n${payload}`, 'latin1'));
      const chunks: Buffer[] = [];
      for await (const chunk of socket) chunks.push(chunk as Buffer);
      const answer = Buffer.concat(chunks).toString('utf8'); // HTTP/1.1 422 …\r\nheaders\r\n\r\nbody
      const status = Number(answer.slice(0, answer.indexOf('\r\n')).split(' ')[1]);
      return { status, body: JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) };
    } finally {
      server.close();
    }
  }

  /** An account with one customer at the provider, ready to take payments. */
  async function accountWithCustomer() {
    const account = await t.newAccount();
    const customer = await t.as(account.token).post('/api/v2/customers', validCustomer);
    expect(customer.status).toBe(201);
    const payment = {
      amount: 12.5,
      currency: 'EUR',
      provider_customer_id: customer.body.provider_customer_id as string,
      description: 'Order 1001',
      redirect_url: 'https://shop.example/thanks',
    };
    return { ...account, payment };
  }

  /** Puts a test-only createPayment in front of the real provider until the returned function is called. */
  function replaceCreatePayment(createPayment: (real: PaymentProvider, ...args: Parameters<CreatePayment>) => ReturnType<CreatePayment>) {
    const registry = t.ctx.providers;
    t.ctx.providers = {
      forAccount: async (account) => {
        const real = await registry.forAccount(account);
        const wrapped = Object.create(real) as PaymentProvider;
        return Object.assign(wrapped, { createPayment: (...args: Parameters<CreatePayment>) => createPayment(real, ...args) });
      },
    };
    return () => {
      t.ctx.providers = registry;
    };
  }

  interface ParkedCall {
    /** Resolves once a request is parked in this call. */
    readonly entered: Promise<void>;
    /** Lets the parked request go on: to the real provider, or to `refusal` thrown in its place. */
    letGo(refusal?: Error): void;
  }

  /**
   * Parks the next `count` provider calls at `stage`, each until it is let go; calls after those pass
   * straight through. `forAccount` comes before a payment request writes anything, `createPayment` after.
   */
  function parkProviderCalls(stage: 'forAccount' | 'createPayment', count: number) {
    const calls = Array.from({ length: count }, () => {
      let arrive = () => {};
      const entered = new Promise<void>((resolve) => (arrive = resolve));
      let letGo: (refusal?: Error) => void = () => {};
      const released = new Promise<Error | undefined>((resolve) => (letGo = resolve));
      return { entered, arrive, released, letGo: (refusal?: Error) => letGo(refusal) };
    });
    let arrived = 0;
    const park = async () => {
      const call = calls[arrived];
      arrived += 1;
      if (!call) return;
      call.arrive();
      const refusal = await call.released;
      if (refusal) throw refusal;
    };
    const registry = t.ctx.providers;
    const restore =
      stage === 'createPayment'
        ? replaceCreatePayment(async (real, ...args) => {
            await park();
            return real.createPayment(...args);
          })
        : () => {
            t.ctx.providers = registry;
          };
    if (stage === 'forAccount') {
      t.ctx.providers = {
        forAccount: async (account) => {
          await park();
          return registry.forAccount(account);
        },
      };
    }
    return {
      calls: calls as ParkedCall[],
      /** Puts the real provider back and lets every parked request go on. */
      restore() {
        restore();
        for (const call of calls) call.letGo();
      },
    };
  }

  describe('replaying a request', () => {
    it(
      'When POST /api/v2/customers is sent twice with one key and body, then the second replays the first and one customer ' + 'exists',
      async () => {
        const { accountId, token } = await t.newAccount();
        const key = newKey();
        const first = await postWithKey(token, '/api/v2/customers', validCustomer, key);
        t.clock.advance(60_000);
        const second = await postWithKey(token, '/api/v2/customers', validCustomer, key);

        expect(first.status).toBe(201);
        expect(first.headers['idempotent-replayed']).toBeUndefined();
        expect(second.status).toBe(201);
        expect(second.headers['idempotent-replayed']).toBe('true');
        expect(second.headers['content-type']).toBe(first.headers['content-type']);
        expect(second.text).toBe(first.text);
        expect(await countOf('customers', accountId)).toBe(1);
        expect(await countOf('sandbox_customers', accountId)).toBe(1);
        expect(await keyRowOf(accountId, key)).toMatchObject({ state: 'done', response_status: 201, response_body: first.text });
      },
    );

    it(
      'When a client retries POST /api/v2/payments after a timeout, then it gets the same payment and no second one is ' + 'created',
      async () => {
        const { accountId, token, payment } = await accountWithCustomer();
        const key = newKey();
        const first = await postWithKey(token, '/api/v2/payments', payment, key);
        const retry = await postWithKey(token, '/api/v2/payments', payment, key);

        expect(first.status).toBe(201);
        expect(retry.status).toBe(201);
        expect(retry.headers['idempotent-replayed']).toBe('true');
        expect(retry.text).toBe(first.text);
        expect(await countOf('payments', accountId)).toBe(1);
        expect(await countOf('sandbox_payments', accountId)).toBe(1);
      },
    );

    it('When the same JSON comes with other key order and whitespace, then it is the same request and is replayed', async () => {
      const { accountId, token, payment } = await accountWithCustomer();
      const key = newKey();
      const first = await postWithKey(token, '/api/v2/payments', payment, key);
      const reordered = Object.fromEntries(Object.entries(payment).reverse());
      const again = await request(t.app)
        .post('/api/v2/payments')
        .set('Authorization', `Bearer ${token}`)
        .set('Idempotency-Key', key)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(reordered, null, 4));

      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(first.text);
      expect(await countOf('payments', accountId)).toBe(1);
    });

    it('When a request fails validation with a key, then the 422 is kept and replayed as 422', async () => {
      const { accountId, token } = await t.newAccount();
      const key = newKey();
      const invalid = { first_name: 'Anna', last_name: 'de Vries' };
      const first = await postWithKey(token, '/api/v2/customers', invalid, key);
      const second = await postWithKey(token, '/api/v2/customers', invalid, key);

      expect(first.status).toBe(422);
      expect(first.body).toEqual({
        status: 422,
        error: 'Could not create customer. Some fields contain invalid data',
        code: 'validation_failed',
        fields: { email: ['The email field is required.'] },
      });
      expect(second.status).toBe(422);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.text).toBe(first.text);
      expect(await countOf('customers', accountId)).toBe(0);
    });
  });

  describe('a key used for another request', () => {
    it('When the same key comes with a different body, then it answers 422 naming the header and creates nothing more', async () => {
      const { accountId, token } = await t.newAccount();
      const key = newKey();
      await postWithKey(token, '/api/v2/customers', validCustomer, key);
      const res = await postWithKey(token, '/api/v2/customers', { ...validCustomer, first_name: 'Bea' }, key);

      expect(res.status).toBe(422);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(res.body).toEqual({
        status: 422,
        error: 'This Idempotency-Key was already used for a different request',
        code: 'idempotency_key_reused',
        fields: {
          'Idempotency-Key': ['The Idempotency-Key header was already used for a different request; send a new key for a new request.'],
        },
      });
      expect(await countOf('customers', accountId)).toBe(1);
    });

    it('When the same key and body go to another endpoint, then it answers 422 and that endpoint does not run', async () => {
      const { accountId, token, payment } = await accountWithCustomer();
      const key = newKey();
      await postWithKey(token, '/api/v2/payments', payment, key);
      const res = await postWithKey(token, '/api/v2/products', payment, key);

      expect(res.status).toBe(422);
      expect(res.body.code).toBe('idempotency_key_reused');
      expect(await countOf('products', accountId)).toBe(0);
    });
  });

  describe('a duplicate while the first request still runs', () => {
    it(
      'When the first request is still running, then a duplicate answers 409 with Retry-After until its lock runs out; afterwards ' +
        'the key replays the first answer',
      async () => {
        const { accountId, token, payment } = await accountWithCustomer();
        const key = newKey();
        const parked = parkProviderCalls('createPayment', 1);
        try {
          const first = postWithKey(token, '/api/v2/payments', payment, key).then((res) => res);
          await parked.calls[0]?.entered;
          expect(await keyRowOf(accountId, key)).toMatchObject({ state: 'running', response_status: null, response_body: null });

          const duplicate = await postWithKey(token, '/api/v2/payments', payment, key);
          expect(duplicate.status).toBe(409);
          expect(duplicate.headers['retry-after']).toBe('60');
          expect(duplicate.body).toEqual({
            status: 409,
            error: 'A request with this Idempotency-Key is still being processed',
            code: 'idempotency_in_progress',
          });
          t.clock.advance(45_000);
          const later = await postWithKey(token, '/api/v2/payments', payment, key);
          expect(later.status).toBe(409);
          expect(later.headers['retry-after']).toBe('15');

          parked.calls[0]?.letGo();
          const answered = await first;
          expect(answered.status).toBe(201);
          expect(answered.headers['idempotent-replayed']).toBeUndefined();

          const third = await postWithKey(token, '/api/v2/payments', payment, key);
          expect(third.status).toBe(201);
          expect(third.headers['idempotent-replayed']).toBe('true');
          expect(third.headers['retry-after']).toBeUndefined();
          expect(third.text).toBe(answered.text);
          expect(await countOf('payments', accountId)).toBe(1);
          expect(await countOf('sandbox_payments', accountId)).toBe(1);
        } finally {
          parked.restore();
        }
      },
    );
  });

  describe('expiry and scope', () => {
    it('When 24 hours have passed, then the key is fresh again and a second customer is created', async () => {
      const { accountId, token } = await t.newAccount();
      const key = newKey();
      const first = await postWithKey(token, '/api/v2/customers', validCustomer, key);

      t.clock.advance(DAY_MS - 1000);
      const withinDay = await postWithKey(token, '/api/v2/customers', validCustomer, key);
      expect(withinDay.headers['idempotent-replayed']).toBe('true');
      expect(withinDay.body.id).toBe(first.body.id);

      t.clock.advance(2000);
      const afterDay = await postWithKey(token, '/api/v2/customers', validCustomer, key);
      expect(afterDay.status).toBe(201);
      expect(afterDay.headers['idempotent-replayed']).toBeUndefined();
      expect(afterDay.body.id).not.toBe(first.body.id);
      expect(await countOf('customers', accountId)).toBe(2);

      const replayOfNew = await postWithKey(token, '/api/v2/customers', validCustomer, key);
      expect(replayOfNew.body.id).toBe(afterDay.body.id);
      expect(replayOfNew.headers['idempotent-replayed']).toBe('true');
    });

    it('When two accounts send the same key, then each gets its own customer', async () => {
      const one = await t.newAccount();
      const two = await t.newAccount();
      const key = newKey();
      const first = await postWithKey(one.token, '/api/v2/customers', validCustomer, key);
      const second = await postWithKey(two.token, '/api/v2/customers', validCustomer, key);

      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.headers['idempotent-replayed']).toBeUndefined();
      expect(second.body.id).not.toBe(first.body.id);
      expect(await countOf('customers', one.accountId)).toBe(1);
      expect(await countOf('customers', two.accountId)).toBe(1);
    });

    it('When two keys differ only in letter case, then they are two keys on every database', async () => {
      const { token, accountId } = await t.newAccount();
      const key = `${newKey()}-Abc`;
      const first = await postWithKey(token, '/api/v2/customers', validCustomer, key);
      const second = await postWithKey(token, '/api/v2/customers', validCustomer, key.toLowerCase());
      expect(second.status).toBe(201);
      expect(second.headers['idempotent-replayed']).toBeUndefined();
      expect(second.body.id).not.toBe(first.body.id);
      expect(await countOf('customers', accountId)).toBe(2);
    });
  });

  describe('server errors and dead requests', () => {
    it.each([
      ['the provider is unavailable', () => new ProviderUnavailableError()],
      ['the provider call crashes', () => new Error('connection reset by the provider library')],
    ])(
      'When %s, then the 502 is not kept, the key keeps the payment it wrote, and a retry resumes that payment',
      async (_case, failure) => {
        const { accountId, token, payment } = await accountWithCustomer();
        const key = newKey();
        const restore = replaceCreatePayment(async () => {
          throw failure();
        });
        let failed;
        try {
          failed = await postWithKey(token, '/api/v2/payments', payment, key);
        } finally {
          restore();
        }
        expect(failed.status).toBe(502);
        const [kept] = await t.ctx.db('payments').where({ account_id: accountId });
        expect(kept.status).toBe('creating');
        expect(await keyRowOf(accountId, key)).toMatchObject({ state: 'running', resource_id: kept.id, response_status: null });

        const retry = await postWithKey(token, '/api/v2/payments', payment, key);
        expect(retry.status).toBe(201);
        expect(retry.headers['idempotent-replayed']).toBeUndefined();
        expect(retry.body.id).toBe(kept.id);
        expect(await countOf('payments', accountId)).toBe(1);
        expect(await countOf('sandbox_payments', accountId)).toBe(1);
      },
    );

    it('When a key was left running before keys had a lock token, then a retry still takes it over and resumes its payment', async () => {
      const { accountId, token, payment } = await accountWithCustomer();
      const key = newKey();
      const restore = replaceCreatePayment(async () => {
        throw new ProviderUnavailableError();
      });
      try {
        expect((await postWithKey(token, '/api/v2/payments', payment, key)).status).toBe(502);
      } finally {
        restore();
      }
      await t.ctx.db('idempotency_keys').where({ account_id: accountId, idempotency_key: key }).update({ lock_token: null });
      const [kept] = await t.ctx.db('payments').where({ account_id: accountId });

      const retry = await postWithKey(token, '/api/v2/payments', payment, key);
      expect(retry.status).toBe(201);
      expect(retry.body.id).toBe(kept.id);
      expect(await keyRowOf(accountId, key)).toMatchObject({ state: 'done', response_body: retry.text });
      expect(await countOf('payments', accountId)).toBe(1);
    });

    it('When a request died holding its key, then a retry gets 409 while the lock lasts and then resumes the same payment', async () => {
      const { accountId, token, payment } = await accountWithCustomer();
      const key = newKey();
      // The first attempt never comes back from the provider: as far as the key can tell, its request died.
      const parked = parkProviderCalls('createPayment', 1);
      try {
        const dead = postWithKey(token, '/api/v2/payments', payment, key).then((res) => res);
        await parked.calls[0]?.entered;
        const [kept] = await t.ctx.db('payments').where({ account_id: accountId });

        expect((await postWithKey(token, '/api/v2/payments', payment, key)).status).toBe(409);
        t.clock.advance(59_000);
        const lastSecond = await postWithKey(token, '/api/v2/payments', payment, key);
        expect(lastSecond.status).toBe(409);
        expect(lastSecond.headers['retry-after']).toBe('1');

        t.clock.advance(2_000);
        const retry = await postWithKey(token, '/api/v2/payments', payment, key);
        expect(retry.status).toBe(201);
        expect(retry.body.id).toBe(kept.id);

        // The first attempt ends after all, with the same provider key: still one payment everywhere.
        parked.calls[0]?.letGo();
        expect((await dead).status).toBe(201);
        expect(await countOf('payments', accountId)).toBe(1);
        expect(await countOf('sandbox_payments', accountId)).toBe(1);
      } finally {
        parked.restore();
      }
    });
  });

  describe('a slow request whose key was taken over', () => {
    it(
      'When the slow request finishes after the one that took its key over, then its own client gets its answer and the key keeps ' +
        'and replays the answer of the one that took it over',
      async () => {
        const { accountId, token, payment } = await accountWithCustomer();
        const key = newKey();
        const parked = parkProviderCalls('createPayment', 1);
        try {
          const slow = postWithKey(token, '/api/v2/payments', payment, key).then((res) => res);
          await parked.calls[0]?.entered;
          t.clock.advance(61_000);
          const taker = await postWithKey(token, '/api/v2/payments', payment, key);
          expect(taker.status).toBe(201);
          expect(await keyRowOf(accountId, key)).toMatchObject({ state: 'done', response_status: 201, response_body: taker.text });

          // The slow one ends otherwise (the provider refuses its call): an answer the key must not take.
          parked.calls[0]?.letGo(new ProviderRejectedError('The amount is lower than the minimum', 'amount'));
          const late = await slow;
          expect(late.status).toBe(422);
          expect(late.body.code).toBe('provider_rejected');
          const warning = t.logs.lines.find(
            (line) => line.includes('answer not kept') && line.includes(late.headers['x-request-id'] as string),
          );
          expect(warning).toContain('"status":422');

          expect(await keyRowOf(accountId, key)).toMatchObject({ state: 'done', response_status: 201, response_body: taker.text });
          const replayed = await postWithKey(token, '/api/v2/payments', payment, key);
          expect(replayed.status).toBe(201);
          expect(replayed.headers['idempotent-replayed']).toBe('true');
          expect(replayed.text).toBe(taker.text);
          expect(await countOf('payments', accountId)).toBe(1);
          expect(await countOf('sandbox_payments', accountId)).toBe(1);
        } finally {
          parked.restore();
        }
      },
    );

    it(
      'When the slow request writes its payment after its key was taken over, then that write is rolled back with a 409 and only the ' +
        'payment of the one that took it over is made and kept',
      async () => {
        const { accountId, token, payment } = await accountWithCustomer();
        const key = newKey();
        // Both attempts are held before they write anything: the slow one, then the one that takes its key over.
        const parked = parkProviderCalls('forAccount', 2);
        try {
          const slow = postWithKey(token, '/api/v2/payments', payment, key).then((res) => res);
          await parked.calls[0]?.entered;
          t.clock.advance(61_000);
          const taker = postWithKey(token, '/api/v2/payments', payment, key).then((res) => res);
          await parked.calls[1]?.entered;

          parked.calls[0]?.letGo();
          const late = await slow;
          expect(late.status).toBe(409);
          expect(late.body.code).toBe('idempotency_in_progress');
          expect(late.headers['retry-after']).toBe('60');
          expect(await countOf('payments', accountId)).toBe(0);
          expect(await keyRowOf(accountId, key)).toMatchObject({ state: 'running', resource_id: null });

          parked.calls[1]?.letGo();
          const answered = await taker;
          expect(answered.status).toBe(201);
          expect(await keyRowOf(accountId, key)).toMatchObject({
            state: 'done',
            resource_id: answered.body.id,
            response_status: 201,
            response_body: answered.text,
          });
          const replayed = await postWithKey(token, '/api/v2/payments', payment, key);
          expect(replayed.headers['idempotent-replayed']).toBe('true');
          expect(replayed.text).toBe(answered.text);
          expect(await countOf('payments', accountId)).toBe(1);
          expect(await countOf('sandbox_payments', accountId)).toBe(1);
        } finally {
          parked.restore();
        }
      },
    );
  });

  describe('a request that fails after writing', () => {
    it('When a request fails after its product was written, then a retry with the key answers that product, not a second one', async () => {
      const { accountId, token } = await t.newAccount();
      const key = newKey();
      const product = { type: 'once', name: 'Mug', amount: 12.5, vat: 21 };
      const failing = jest.spyOn(productPresenter, 'presentProduct').mockImplementationOnce(() => {
        throw new Error('the process died while answering');
      });
      try {
        const died = await postWithKey(token, '/api/v2/products', product, key);
        expect(died.status).toBe(500);
      } finally {
        failing.mockRestore();
      }
      const [written] = await t.ctx.db('products').where({ account_id: accountId });
      expect(await keyRowOf(accountId, key)).toMatchObject({ state: 'running', resource_id: written.id });

      const retry = await postWithKey(token, '/api/v2/products', product, key);
      expect(retry.status).toBe(201);
      expect(retry.body.id).toBe(written.id);
      expect(await countOf('products', accountId)).toBe(1);
    });
  });

  describe('the header itself', () => {
    it.each([
      ['is longer than 255 characters', 'k'.repeat(256), 'The Idempotency-Key header must not be greater than 255 characters.'],
      ['is empty', '', 'The Idempotency-Key header must not be empty.'],
      ['is not ASCII', 'clé-1', 'The Idempotency-Key header must contain only printable ASCII characters.'],
      ['holds a control character', 'a\tb', 'The Idempotency-Key header must contain only printable ASCII characters.'],
    ])('When the key %s, then it answers 422 naming the header and creates nothing', async (_case, key, message) => {
      const { accountId, token } = await t.newAccount();
      const res = await rawPostWithKey(token, '/api/v2/customers', validCustomer, key);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        status: 422,
        error: 'The Idempotency-Key header is invalid',
        code: 'validation_failed',
        fields: { 'Idempotency-Key': [message] },
      });
      expect(await countOf('customers', accountId)).toBe(0);
      expect(await countOf('idempotency_keys', accountId)).toBe(0);
    });

    it('When the key is exactly 255 printable characters, then it is accepted and replayed', async () => {
      const { token } = await t.newAccount();
      const key = `${newKey()} ~!`.padEnd(255, 'x');
      const first = await postWithKey(token, '/api/v2/customers', validCustomer, key);
      const second = await postWithKey(token, '/api/v2/customers', validCustomer, key);
      expect(first.status).toBe(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body.id).toBe(first.body.id);
    });

    it('When no key is sent, then every POST runs and nothing is recorded', async () => {
      const { accountId, token } = await t.newAccount();
      const first = await t.as(token).post('/api/v2/customers', validCustomer);
      const second = await t.as(token).post('/api/v2/customers', validCustomer);
      expect(second.body.id).not.toBe(first.body.id);
      expect(await countOf('customers', accountId)).toBe(2);
      expect(await countOf('idempotency_keys', accountId)).toBe(0);
    });

    it('When the OpenAPI document is read, then every POST declares the optional header and a 409, and no other method does', async () => {
      // Besides the POSTs, only an operation refused for a conflict of its own declares a 409 (revoking a mandate in use,
      // settling a follow-up that is settled already).
      const OWN_CONFLICT = new Set(['revokeCustomerMandate', 'updateFollowUp']);
      const doc = (await request(t.app).get('/api/v2/openapi.json')).body as {
        paths: Record<
          string,
          Record<
            string,
            { operationId: string; parameters: { name: string; in: string; required: boolean }[]; responses: Record<string, unknown> }
          >
        >;
      };
      const operations = Object.values(doc.paths).flatMap((byMethod) => Object.entries(byMethod));
      expect(operations.filter(([method]) => method === 'post').length).toBeGreaterThanOrEqual(5);
      for (const [method, operation] of operations) {
        const header = operation.parameters.find((parameter) => parameter.name === 'Idempotency-Key');
        if (method === 'post') {
          expect(header).toMatchObject({ in: 'header', required: false, schema: { type: 'string', maxLength: 255 } });
          expect(Object.keys(operation.responses)).toContain('409');
        } else {
          expect(header).toBeUndefined();
          if (OWN_CONFLICT.has(operation.operationId)) expect(Object.keys(operation.responses)).toContain('409');
          else expect(Object.keys(operation.responses)).not.toContain('409');
        }
      }
    });

    it('When PUT or PATCH carry a key, then it is ignored: each runs and nothing is recorded', async () => {
      const { accountId, token } = await t.newAccount();
      const created = await t.as(token).post('/api/v2/customers', validCustomer);
      const key = newKey();
      const put = await t.as(token).put(`/api/v2/customers/${created.body.id}`, { city: 'Utrecht' }).set('Idempotency-Key', key);
      const patch = await t.as(token).patch(`/api/v2/customers/${created.body.id}`, { city: 'Delft' }).set('Idempotency-Key', key);
      expect(put.status).toBe(200);
      expect(put.body.city).toBe('Utrecht');
      expect(patch.status).toBe(200);
      expect(patch.headers['idempotent-replayed']).toBeUndefined();
      expect(patch.body.city).toBe('Delft');
      expect(await countOf('idempotency_keys', accountId)).toBe(0);
    });
  });
});
