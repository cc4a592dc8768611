import request from 'supertest';
import { z } from 'zod';
import { buildOpenApiDocument } from '../../src/http/openapi';
import { apiRoutes } from '../../src/modules';
import { createCustomerBody, customerResponse, updateCustomerBody } from '../../src/modules/customers/schemas';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';

interface JsonSchema {
  type?: string;
  required?: string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: JsonSchema;
}

interface Operation {
  operationId: string;
  parameters: Parameter[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, { content?: { 'application/json': { schema: JsonSchema } } }>;
  'x-extension'?: boolean;
}

type OpenApiDocument = ReturnType<typeof buildOpenApiDocument> & { paths: Record<string, Record<string, Operation>> };

/** The operations of docs/api.md, Endpoints, in OpenAPI notation. */
const SPEC_ENDPOINTS = [
  ['get', '/api/v2/links'],
  ['get', '/api/v2/follow-ups'],
  ['get', '/api/v2/orders'],
  ['get', '/api/v2/subscriptions'],
  ['get', '/api/v2/customers'],
  ['get', '/api/v2/products'],
  ['post', '/api/v2/subscriptions'],
  ['post', '/api/v2/customers'],
  ['put', '/api/v2/customers/{id}'],
  ['post', '/api/v2/customers/{customerId}/mandates'],
  ['post', '/api/v2/payments'],
  ['post', '/api/v2/products'],
] as const;

/**
 * The creates and the customer update of docs/api.md (Customer, Mandate, Subscription, Payment, Product): fields
 * every request must carry; conditional ones are not listed.
 */
const REQUIRED_BODY_FIELDS: [string, string, string[]][] = [
  ['post', '/api/v2/customers', ['first_name', 'last_name', 'email']],
  ['put', '/api/v2/customers/{id}', []],
  ['post', '/api/v2/customers/{customerId}/mandates', ['consumer_name', 'consumer_account']],
  ['post', '/api/v2/subscriptions', ['name', 'customer_id', 'provider_profile_id', 'provider_mandate_id', 'start_date', 'rules']],
  ['post', '/api/v2/payments', ['amount', 'currency', 'provider_customer_id', 'description', 'redirect_url']],
  ['post', '/api/v2/products', ['type', 'name', 'amount', 'vat']],
];

/** Fields required in every variant of a schema (a union requires what all its branches require). */
function alwaysRequired(schema: JsonSchema): string[] {
  const own = new Set(schema.required ?? []);
  for (const part of schema.allOf ?? []) for (const name of alwaysRequired(part)) own.add(name);
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches?.length) {
    const [first, ...rest] = branches.map(alwaysRequired);
    for (const name of first ?? []) if (rest.every((branch) => branch.includes(name))) own.add(name);
  }
  return [...own].sort();
}

/** The same conversion openapi.ts applies, so equality proves the document comes from the zod schemas. */
function asJsonSchema(schema: z.ZodType, io: 'input' | 'output') {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as Record<
    string,
    unknown
  >;
  return rest;
}

describe.each(TEST_DATABASES)('OpenAPI document on %s', (kind) => {
  const t = useTestApp(kind);
  let doc: OpenApiDocument;

  beforeAll(async () => {
    const res = await request(t.app).get('/api/v2/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body as OpenApiDocument;
  });

  const operation = (method: string, path: string): Operation | undefined => doc.paths[path]?.[method];

  it('When it is fetched without a token, then it answers 200 with the document built from the route list', async () => {
    const res = await request(t.app).get('/api/v2/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(apiRoutes, TEST_PUBLIC_URL))));
    expect(res.body).toMatchObject({ openapi: '3.0.3', servers: [{ url: TEST_PUBLIC_URL }] });
  });

  it.each(SPEC_ENDPOINTS)(
    'When the spec lists %s %s, then the document has that operation and does not call it an extension',
    (method, path) => {
      const found = operation(method, path);
      expect(found).toBeDefined();
      expect(found?.['x-extension']).toBeUndefined();
    },
  );

  it('When paths carry parameters, then they are written {name} and declared as required path parameters', () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      expect(path).not.toContain(':');
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      for (const found of Object.values(operations)) {
        const declared = found.parameters.filter((parameter) => parameter.in === 'path');
        expect(declared.map((parameter) => parameter.name).sort()).toEqual([...names].sort());
        expect(declared.every((parameter) => parameter.required)).toBe(true);
      }
    }
    expect(operation('put', '/api/v2/customers/{id}')?.parameters).toContainEqual(
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    );
    expect(operation('post', '/api/v2/customers/{customerId}/mandates')?.parameters).toContainEqual(
      expect.objectContaining({ name: 'customerId', in: 'path', required: true }),
    );
  });

  it.each(SPEC_ENDPOINTS.filter(([method]) => method === 'get'))(
    'When %s %s lists, then it documents an optional integer page query parameter',
    (method, path) => {
      const page = operation(method, path)?.parameters.find((parameter) => parameter.name === 'page');
      expect(page).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1 } });
    },
  );

  it.each(REQUIRED_BODY_FIELDS)(
    'When %s %s takes a body, then its schema requires exactly the fields the spec requires',
    (method, path, required) => {
      const body = operation(method, path)?.requestBody;
      expect(body?.required).toBe(true);
      const schema = body?.content['application/json'].schema;
      expect(schema).toBeDefined();
      expect(alwaysRequired(schema ?? {})).toEqual([...required].sort());
    },
  );

  it('When a subscription is created, then each rule requires amount, interval and interval_amount', () => {
    const schema = operation('post', '/api/v2/subscriptions')?.requestBody?.content['application/json'].schema;
    const rule = schema?.properties?.rules?.items;
    expect(rule).toBeDefined();
    expect(alwaysRequired(rule ?? {})).toEqual(['amount', 'interval', 'interval_amount']);
  });

  it('When the customer operations are documented, then their schemas are the zod schemas that validate and answer', () => {
    expect(operation('post', '/api/v2/customers')?.requestBody?.content['application/json'].schema).toEqual(
      asJsonSchema(createCustomerBody, 'input'),
    );
    expect(operation('put', '/api/v2/customers/{id}')?.requestBody?.content['application/json'].schema).toEqual(
      asJsonSchema(updateCustomerBody, 'input'),
    );
    expect(operation('post', '/api/v2/customers')?.responses['201']?.content?.['application/json'].schema).toEqual(
      asJsonSchema(customerResponse, 'output'),
    );
  });

  it('When any route has a body, then its documented request body is that route’s zod schema', () => {
    for (const route of apiRoutes) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      for (const method of route.methods) {
        const documented = operation(method, path);
        expect(documented?.requestBody?.content['application/json'].schema).toEqual(
          route.body ? asJsonSchema(route.body, 'input') : undefined,
        );
      }
    }
  });

  it('When an operation is beyond the spec (PATCH synonym, read-one), then it is marked x-extension; the spec’s own are not', () => {
    expect(operation('patch', '/api/v2/customers/{id}')?.['x-extension']).toBe(true);
    expect(operation('get', '/api/v2/customers/{id}')?.['x-extension']).toBe(true);
    expect(operation('put', '/api/v2/customers/{id}')?.['x-extension']).toBeUndefined();
    expect(operation('post', '/api/v2/customers')?.['x-extension']).toBeUndefined();
  });

  it('When the mandate extensions are documented, then they are marked x-extension and the revoke declares its 409', () => {
    expect(operation('get', '/api/v2/customers/{customerId}/mandates')?.['x-extension']).toBe(true);
    expect(operation('get', '/api/v2/customers/{customerId}/mandates/{mandateId}')?.['x-extension']).toBe(true);
    const revoke = operation('delete', '/api/v2/customers/{customerId}/mandates/{mandateId}');
    expect(revoke?.['x-extension']).toBe(true);
    expect(Object.keys(revoke?.responses ?? {})).toContain('409');
  });

  it('When operations are listed, then every operationId is unique and every error answer an operation can give is declared', () => {
    const operations = Object.values(doc.paths).flatMap((byMethod) => Object.values(byMethod));
    const ids = operations.map((found) => found.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const found of operations) expect(Object.keys(found.responses)).toEqual(expect.arrayContaining(['401', '422']));
    const methodsAndOperations = Object.values(doc.paths).flatMap((byMethod) => Object.entries(byMethod));
    for (const [method, found] of methodsAndOperations) {
      const errors = ['401', '404', '422', '429', '500', '502'];
      if (['post', 'put', 'patch'].includes(method)) errors.push('400', '413', '415');
      if (method === 'post') errors.push('409');
      expect(Object.keys(found.responses)).toEqual(expect.arrayContaining(errors));
    }
  });
});
