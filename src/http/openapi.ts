import { z } from 'zod';
import { idempotencyKeyParameter } from './idempotency';
import type { RouteSpec } from './route';

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as Record<
    string,
    unknown
  >;
  return rest;
}

const errorSchema = {
  type: 'object',
  required: ['status', 'error'],
  properties: {
    status: { type: 'integer' },
    error: { type: 'string' },
    code: { type: 'string' },
    fields: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    request_id: { type: 'string' },
  },
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** Every error answer an operation can give (docs/api.md, "Errors"). */
function errorResponsesOf(method: string, conflict?: string): Record<string, ReturnType<typeof errorResponse>> {
  const withBody = method === 'post' || method === 'put' || method === 'patch';
  return {
    ...(withBody ? { '400': errorResponse('Malformed JSON body') } : {}),
    '401': errorResponse('No or bad token'),
    '404': errorResponse('Unknown id, or an id of another account'),
    ...(method === 'post'
      ? { '409': errorResponse('A request with the same Idempotency-Key is still being processed, or a conflicting run is going') }
      : {}),
    ...(conflict ? { '409': errorResponse(conflict) } : {}),
    ...(withBody ? { '413': errorResponse('Body over 1 MB'), '415': errorResponse('Content-Type is not application/json') } : {}),
    '422': errorResponse('Validation failed; `fields` names each invalid field'),
    '429': errorResponse('Rate limit exceeded; see Retry-After'),
    '500': errorResponse('Server fault; the body carries a request_id and no details'),
    '502': errorResponse('The payment provider or the store could not be asked; nothing was done, retry'),
  };
}

function parametersOf(route: RouteSpec) {
  const parameters: Record<string, unknown>[] = [];
  for (const [location, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!(schema instanceof z.ZodObject)) continue;
    for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      parameters.push({
        name,
        in: location,
        required: location === 'path' || !field.safeParse(undefined).success,
        // What the text means once parsed: `page` is an integer (spec 4), not a string of digits.
        schema: jsonSchema(field, 'output'),
      });
    }
  }
  return parameters;
}

/** The OpenAPI 3 document of the API, written from the same route objects that serve requests. */
export function buildOpenApiDocument(routes: RouteSpec[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const openApiPath = route.path.replace(/:(\w+)/g, '{$1}');
    for (const method of route.methods) {
      const operation: Record<string, unknown> = {
        operationId: method === route.methods[0] ? route.operationId : `${route.operationId}_${method}`,
        summary: route.summary,
        tags: [route.tag],
        // A second method on one route (PATCH beside PUT) is a synonym beyond the spec.
        ...(route.extension || method !== route.methods[0] ? { 'x-extension': true } : {}),
        parameters: [...parametersOf(route), ...(method === 'post' ? [idempotencyKeyParameter] : [])],
        responses: {
          [String(route.status)]: {
            description: 'Success',
            ...(route.status === 204 ? {} : { content: { 'application/json': { schema: jsonSchema(route.response, 'output') } } }),
          },
          ...errorResponsesOf(method, route.conflict),
        },
      };
      if (route.body) {
        operation.requestBody = {
          required: true,
          content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
        };
      }
      (paths[openApiPath] ??= {})[method] = operation;
    }
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Recurring Payments Service API',
      version: '2',
      description: 'Recurring billing on top of a payment provider. Operations marked x-extension go beyond the v2 specification.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: errorSchema },
    },
    paths,
  };
}
