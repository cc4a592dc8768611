import fc from 'fast-check';
import request from 'supertest';
import type { Method } from '../../src/http/route';
import { apiRoutes } from '../../src/modules';
import { TEST_DATABASES } from '../support/databases';
import { expectDocumentedAnswer, fieldNamesOf, garbageBodies, type KnownIds } from '../support/fuzz';
import { useTestApp } from '../support/testApp';

/**
 * Whatever a client sends to a route that takes a body, the answer is never a 5xx and every error
 * has the documented shape. Routes are read from apiRoutes, so routes added later are covered too.
 */

const RUNS_PER_OPERATION = 100;
const WRITE_METHODS: Method[] = ['post', 'put', 'patch'];

const operations = apiRoutes.flatMap((route) =>
  route.methods.filter((method) => WRITE_METHODS.includes(method)).map((method) => ({ route, method })),
);

describe.each(TEST_DATABASES)('malformed bodies on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let ids: KnownIds;

  beforeAll(async () => {
    ({ token } = await t.newAccount());
    const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' });
    const mandate = await t
      .as(token)
      .post(`/api/v2/customers/${customer.body.id}/mandates`, { consumer_name: 'Anna de Vries', consumer_account: 'NL91ABNA0417164300' });
    ids = { customerId: customer.body.id, providerCustomerId: customer.body.provider_customer_id, mandateId: mandate.body.id };
  });

  it('When the routes are read, then there are write operations to test', () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  it.each(operations.map(({ route, method }) => [method.toUpperCase(), route.path, route, method] as const))(
    'When %s %s gets malformed bodies, then it never answers 5xx and every error has the documented shape',
    async (_label, _path, route, method) => {
      // A real customer id, so /:id and /:customerId routes get past the path to the body.
      const path = route.path.replace(/:\w+/g, ids.customerId);
      await fc.assert(
        fc.asyncProperty(garbageBodies(fieldNamesOf(route.body), ids), async (body) => {
          const json = JSON.stringify(body) ?? 'null';
          const agent = request(t.app);
          const res = await agent[method](path).set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send(json);
          expectDocumentedAnswer(res);
        }),
        { numRuns: RUNS_PER_OPERATION },
      );
    },
  );
});
