import { readFileSync } from 'node:fs';
import path from 'node:path';
import nock from 'nock';

/** Where the Mollie client sends requests by default; nock stands in for it (the client refuses http://). */
export const MOLLIE_API = 'https://api.mollie.com';

/** Shaped like a Mollie test key; never a real one. */
export const TEST_MOLLIE_KEY = 'test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM';

export type MollieBody = Record<string, unknown>;

/**
 * A recorded-shape body from test/fixtures/mollie/ (see README there for the sources), with the given
 * top-level fields replaced.
 */
export function mollieFixture(name: string, overrides: MollieBody = {}): MollieBody {
  const body = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/mollie', `${name}.json`), 'utf8')) as MollieBody;
  return { ...body, ...overrides };
}

export function mollie(): nock.Scope {
  return nock(MOLLIE_API);
}

/**
 * Mollie answers the methods list once (any query): iDEAL, 0.01 to 50,000.00. The service reads it before it makes
 * a payment, a link, a subscription or a product, to refuse an amount no method accepts (amountLimits.ts).
 */
export function mollieListsMethods(): nock.Scope {
  return mollie()
    .get('/v2/methods')
    .query(true)
    .reply(200, {
      count: 1,
      _embedded: {
        methods: [
          {
            resource: 'method',
            id: 'ideal',
            description: 'iDEAL',
            minimumAmount: { value: '0.01', currency: 'EUR' },
            maximumAmount: { value: '50000.00', currency: 'EUR' },
            status: 'activated',
          },
        ],
      },
      _links: { self: { href: `${MOLLIE_API}/v2/methods`, type: 'application/hal+json' } },
    });
}

/** The header of the request nock is answering, from inside a reply callback. */
export function headerOf(req: { headers: Record<string, string | string[] | undefined> }, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** nock reports a miss with a ClientRequest or with the request's options, depending on where it noticed. */
function describeRequest(req: unknown): string {
  if (typeof req !== 'object' || req === null) return String(req);
  const fields = req as { method?: unknown; host?: unknown; hostname?: unknown; path?: unknown; getHeader?: (name: string) => unknown };
  const host = typeof fields.getHeader === 'function' ? fields.getHeader('host') : (fields.hostname ?? fields.host);
  return `${String(fields.method ?? 'GET')} ${String(host ?? '')}${String(fields.path ?? '')}`;
}

/**
 * No Mollie call may go unrecorded: a request without a matching interceptor fails the test (it
 * would otherwise surface as a network error, which looks just like an outage we test for), and so
 * does an interceptor the test set up but the code never called. Loopback (supertest) is ignored.
 */
export function guardMollieNetwork(): void {
  const unmatched: string[] = [];
  const onNoMatch = (req: unknown) => {
    const seen = describeRequest(req);
    if (!/(127\.0\.0\.1|localhost|\[::1\])/.test(seen)) unmatched.push(seen);
  };
  beforeAll(() => {
    nock.emitter.on('no match', onNoMatch);
  });
  afterAll(() => {
    nock.emitter.removeListener('no match', onNoMatch);
    // Each test file loads its own nock, which wraps https.request once more; the oldest wrapper sees a
    // request first. Unwrapping ours at the end keeps this file from intercepting the next file's calls.
    nock.restore();
  });
  afterEach(() => {
    const pending = nock.pendingMocks();
    const stray = unmatched.splice(0);
    nock.cleanAll();
    expect({ unrecordedCalls: stray, unusedInterceptors: pending }).toEqual({ unrecordedCalls: [], unusedInterceptors: [] });
  });
}
