import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import request from 'supertest';
import { ProviderUnavailableError } from '../../src/http/errors';
import * as productPresenter from '../../src/modules/products/presenter';
import type { PaymentProvider } from '../../src/providers';
import { TEST_DATABASES } from '../support/databases';
import { createTestApp, type TestApp } from '../support/testApp';

const DAY_MS = 24 * 60 * 60 * 1000;

type CreatePayment = PaymentProvider['createPayment'];

describe.each(TEST_DATABASES)('Idempotency-Key on %s', (kind) => {
  let t: TestApp;
  let keyCounter = 0;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

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
      const head = [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', `Authorization: Bearer ${token}`, 'Content-Type: application/json'];
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

  describe('replaying a request', () => {
    it('When POST /api/v2/customers is sent twice with one key and body, then the second replays the first and one customer exists', async () => {
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
    });

    it('When a client retries POST /api/v2/payments after a timeout, then it gets the same payment and no second one is created', async () => {
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
    });

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
    it('When the first request is still running, then a duplicate answers 409; afterwards the key replays the first answer', async () => {
      const { accountId, token, payment } = await accountWithCustomer();
      const key = newKey();
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let entered = () => {};
      const parked = new Promise<void>((resolve) => (entered = resolve));
      const restore = replaceCreatePayment(async (real, input, providerKey) => {
        entered();
        await released;
        return real.createPayment(input, providerKey);
      });
      try {
        const first = postWithKey(token, '/api/v2/payments', payment, key).then((res) => res);
        await parked;
        expect(await keyRowOf(accountId, key)).toMatchObject({ state: 'running', response_status: null, response_body: null });

        const duplicate = await postWithKey(token, '/api/v2/payments', payment, key);
        expect(duplicate.status).toBe(409);
        expect(duplicate.body).toEqual({
          status: 409,
          error: 'A request with this Idempotency-Key is still being processed',
          code: 'idempotency_in_progress',
        });

        release();
        const answered = await first;
        expect(answered.status).toBe(201);
        expect(answered.headers['idempotent-replayed']).toBeUndefined();

        const third = await postWithKey(token, '/api/v2/payments', payment, key);
        expect(third.status).toBe(201);
        expect(third.headers['idempotent-replayed']).toBe('true');
        expect(third.text).toBe(answered.text);
        expect(await countOf('payments', accountId)).toBe(1);
        expect(await countOf('sandbox_payments', accountId)).toBe(1);
      } finally {
        release();
        restore();
      }
    });
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
    ])('When %s, then the 502 is not kept, the key keeps the payment it wrote, and a retry resumes that payment', async (_case, failure) => {
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
    });

    it('When a request died holding its key, then a retry gets 409 while the lock lasts and then resumes the same payment', async () => {
      const { accountId, token, payment } = await accountWithCustomer();
      const key = newKey();
      // The first attempt never comes back from the provider: as far as the key can tell, its request died.
      let release = () => {};
      const parked = new Promise<void>((resolve) => (release = resolve));
      let entered = () => {};
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const restore = replaceCreatePayment(async (real, input, providerKey) => {
        entered();
        await parked;
        return real.createPayment(input, providerKey);
      });
      try {
        const dead = postWithKey(token, '/api/v2/payments', payment, key).then((res) => res);
        await inside;
        const [kept] = await t.ctx.db('payments').where({ account_id: accountId });

        expect((await postWithKey(token, '/api/v2/payments', payment, key)).status).toBe(409);
        t.clock.advance(59_000);
        expect((await postWithKey(token, '/api/v2/payments', payment, key)).status).toBe(409);

        t.clock.advance(2_000);
        restore();
        const retry = await postWithKey(token, '/api/v2/payments', payment, key);
        expect(retry.status).toBe(201);
        expect(retry.body.id).toBe(kept.id);

        // The first attempt ends after all, with the same provider key: still one payment everywhere.
        release();
        expect((await dead).status).toBe(201);
        expect(await countOf('payments', accountId)).toBe(1);
        expect(await countOf('sandbox_payments', accountId)).toBe(1);
      } finally {
        release();
        restore();
      }
    });
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
      const doc = (await request(t.app).get('/api/v2/openapi.json')).body as {
        paths: Record<string, Record<string, { parameters: { name: string; in: string; required: boolean }[]; responses: Record<string, unknown> }>>;
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
          expect(Object.keys(operation.responses)).not.toContain('409');
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
