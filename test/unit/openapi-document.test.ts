import { z } from 'zod';
import { buildOpenApiDocument } from '../../src/http/openapi';
import { namedSchemas } from '../../src/http/openapiSchemas';
import { apiRoutes } from '../../src/modules';
import { OpenApiConformance, type OpenApiDocument, type ReceivedAnswer } from '../support/openApiConformance';

interface Operation {
  requestBody?: { required: boolean };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
}

type Document = OpenApiDocument & {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

/** As the app serves it: JSON, no zod objects left. */
const doc = JSON.parse(JSON.stringify(buildOpenApiDocument(apiRoutes, 'http://rps.test'))) as Document;

/** What a route answers with, or lists (the item of a paged envelope); undefined for a file. */
function resourceOf(schema: z.ZodType): z.ZodType | undefined {
  if (schema.description?.includes('/')) return undefined; // a file, e.g. application/pdf
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodType>;
    if (shape.data instanceof z.ZodArray && shape.links && shape.meta) return shape.data.element as z.ZodType;
  }
  return schema;
}

const answer = (overrides: Partial<ReceivedAnswer>): ReceivedAnswer => ({
  method: 'GET',
  path: '/api/v2/customers/cus_1',
  requestBody: undefined,
  status: 404,
  headers: { 'x-request-id': 'req-1', 'content-type': 'application/json; charset=utf-8' },
  body: { status: 404, error: 'Customer not found', code: 'not_found' },
  text: '{"status":404}',
  ...overrides,
});

describe('OpenAPI document: named schemas', () => {
  it('When a route answers with a resource or lists one, then that resource has a name in components/schemas', () => {
    const named = new Map(Object.entries(namedSchemas).map(([name, schema]) => [schema, name]));
    const unnamed = apiRoutes
      .filter((route) => {
        const resource = resourceOf(route.response);
        return resource !== undefined && !named.has(resource);
      })
      .map((route) => route.operationId);
    expect(unnamed).toEqual([]);
    expect(Object.keys(doc.components.schemas)).toEqual(['Error', ...Object.keys(namedSchemas)]);
  });

  it('When a named schema holds another, then it refers to it by name, in OpenAPI 3.0 terms', () => {
    const subscription = doc.components.schemas.Subscription as { properties: Record<string, unknown> };
    expect(subscription.properties.customer).toEqual({ $ref: '#/components/schemas/Customer' });
    expect(JSON.stringify(doc.components.schemas)).not.toMatch(/"\$id"|"\$schema"|#\/definitions\//);
  });

  it('When cancel or pause has no body, then the document does not require one; the spec’s own bodies stay required', () => {
    expect(doc.paths['/api/v2/subscriptions/{id}']?.delete?.requestBody?.required).toBe(false);
    expect(doc.paths['/api/v2/subscriptions/{id}/pause']?.post?.requestBody?.required).toBe(false);
    expect(doc.paths['/api/v2/customers/{id}']?.put?.requestBody?.required).toBe(true);
    expect(doc.paths['/api/v2/customers']?.post?.requestBody?.required).toBe(true);
  });

  it('When an invoice is fetched as a PDF, then the document declares a PDF, not JSON', () => {
    const ok = doc.paths['/api/v2/invoices/{id}/pdf']?.get?.responses['200'];
    expect(Object.keys(ok?.content ?? {})).toEqual(['application/pdf']);
    expect(ok?.headers).toHaveProperty('Content-Disposition');
  });
});

describe('OpenAPI conformance of an answer', () => {
  const conformance = new OpenApiConformance(doc);

  it('When an answer is documented, then it passes', () => {
    expect(conformance.check(answer({}))).toEqual([]);
    expect(
      conformance.check(
        answer({
          method: 'DELETE',
          path: '/api/v2/subscriptions/sub_1',
          status: 404,
          headers: { 'x-request-id': 'r', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'content-type': 'application/json' },
        }),
      ),
    ).toEqual([]);
  });

  it('When the status is not declared for the operation, then the check names the operation and the status', () => {
    const [problem] = conformance.check(answer({ method: 'PUT', status: 409, body: { status: 409, error: 'x', code: 'conflict' } }));
    expect(problem).toMatch(/^OpenAPI: PUT \/api\/v2\/customers\/\{id\} \(updateCustomer\) answered 409: status 409 is not declared/);
  });

  it('When the body does not match the declared schema, then the check says where', () => {
    const [problem] = conformance.check(answer({ body: { status: '404', error: 'x' } }));
    expect(problem).toMatch(/the 404 body does not match its schema: body\/status should be integer/);
  });

  it('When a header is undeclared or a required one missing, then the check names it', () => {
    expect(
      conformance.check(answer({ headers: { 'x-request-id': 'r', 'retry-after': '5', 'content-type': 'application/json' } }))[0],
    ).toMatch(/header retry-after is not declared/);
    expect(conformance.check(answer({ status: 429, body: { status: 429, error: 'slow down', code: 'rate_limited' } }))[0]).toMatch(
      /required header retry-after is missing/,
    );
    expect(conformance.check(answer({ headers: { 'content-type': 'application/json' } }))[0]).toMatch(
      /required header x-request-id is missing/,
    );
  });

  it('When a POST answer below 500 is replayed, then Idempotent-Replayed is declared; on a 500 it is not', () => {
    const replayed = { 'x-request-id': 'r', 'idempotent-replayed': 'true', 'content-type': 'application/json' };
    const refused = { status: 422, error: 'x', code: 'validation_failed', fields: {} };
    expect(conformance.check(answer({ method: 'POST', path: '/api/v2/customers', status: 422, headers: replayed, body: refused }))).toEqual(
      [],
    );
    const failed = { status: 500, error: 'x', code: 'server_error', request_id: 'r' };
    expect(
      conformance.check(answer({ method: 'POST', path: '/api/v2/customers', status: 500, headers: replayed, body: failed }))[0],
    ).toMatch(/header idempotent-replayed is not declared/);
  });

  it('When the service took a request without the body the document requires, then the check says so', () => {
    const created = answer({ method: 'POST', path: '/api/v2/customers', status: 201 });
    expect(conformance.check(created).join()).toMatch(/took a request without a body, which the document requires/);
  });

  it('When a path is not in the document, then only the answers given before routing pass', () => {
    const unknown = { path: '/api/v2/nothing-here', body: { status: 404, error: 'No route', code: 'route_not_found' } };
    expect(conformance.check(answer(unknown))).toEqual([]);
    expect(conformance.check(answer({ ...unknown, status: 200, body: {} }))[0]).toMatch(
      /the document has no operation GET \/api\/v2\/nothing-here/,
    );
  });
});
