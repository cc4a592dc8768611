import { z } from 'zod';
import { idempotencyKeyParameter } from './idempotency';
import { namedSchemas } from './openapiSchemas';
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

/**
 * The headers the API sets (docs/api.md, "Rate limit, request ids, logs" and "Idempotency-Key"),
 * declared once and referred to from each answer that carries them.
 */
const headers = {
  RequestId: {
    description: 'The request id: the caller’s own when it sent a sane one; it appears in the request’s log lines',
    required: true,
    schema: { type: 'string' },
  },
  RateLimitLimit: {
    description: 'Requests allowed per token and minute (absent when the token was refused)',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitRemaining: {
    description: 'Requests left in this minute (absent when the token was refused)',
    schema: { type: 'integer', minimum: 0 },
  },
  RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
  IdempotentReplayed: {
    description: 'The answer is the kept answer of an earlier request with the same Idempotency-Key; nothing was done again',
    schema: { type: 'string', enum: ['true'] },
  },
  WwwAuthenticate: { description: 'The authentication scheme (RFC 6750)', required: true, schema: { type: 'string' } },
} as const;

type HeaderName = keyof typeof headers;

const headerRef = (name: HeaderName, required?: boolean) =>
  required === undefined ? { $ref: `#/components/headers/${name}` } : { ...headers[name], required };

/** Headers every answer under /api/v2 carries or may carry. */
const commonHeaders = {
  'X-Request-Id': headerRef('RequestId'),
  'X-RateLimit-Limit': headerRef('RateLimitLimit'),
  'X-RateLimit-Remaining': headerRef('RateLimitRemaining'),
};

/**
 * The headers of one answer. Answers below 500 to a POST are kept and replayed to a retry with the
 * same Idempotency-Key, marked `Idempotent-Replayed`; 500 and above are never replayed.
 */
function headersOf(method: string, status: number, own: Record<string, object> = {}) {
  return {
    ...commonHeaders,
    ...(method === 'post' && status < 500 ? { 'Idempotent-Replayed': headerRef('IdempotentReplayed') } : {}),
    ...own,
  };
}

const errorResponse = (method: string, status: number, description: string, own?: Parameters<typeof headersOf>[2]) => ({
  description,
  headers: headersOf(method, status, own),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** Any POST may meet its Idempotency-Key still held, or a state it conflicts with (docs/api.md, "Errors"). */
const POST_CONFLICT =
  'A request with the same Idempotency-Key is still being processed (`idempotency_in_progress`, with Retry-After: ' +
  'the seconds until its lock runs out), or the request conflicts with a state (a payment or sync under way, no store connected)';

/** Every error answer an operation can give (docs/api.md, "Errors"). */
function errorResponsesOf(method: string, route: RouteSpec): Record<string, ReturnType<typeof errorResponse>> {
  // Only POST, PUT and PATCH are held to application/json (415); a body of any method is parsed (400, 413).
  const typed = method === 'post' || method === 'put' || method === 'patch';
  const withBody = typed || route.body !== undefined;
  const conflict = route.conflict;
  const error = (status: number, description: string, own?: Parameters<typeof headersOf>[2]) => ({
    [String(status)]: errorResponse(method, status, description, own),
  });
  const conflicts = [...(method === 'post' ? [POST_CONFLICT] : []), ...(conflict ? [conflict] : [])];
  return {
    ...(withBody ? error(400, 'Malformed JSON body') : {}),
    ...error(401, 'No or bad token', { 'WWW-Authenticate': headerRef('WwwAuthenticate') }),
    ...error(404, 'Unknown id, or an id of another account'),
    ...(conflicts.length > 0 ? error(409, conflicts.join('; '), { 'Retry-After': headerRef('RetryAfter', false) }) : {}),
    ...(withBody ? error(413, 'Body over 1 MB') : {}),
    ...(typed ? error(415, 'Content-Type is not application/json') : {}),
    ...error(422, 'Validation failed; `fields` names each invalid field'),
    ...error(429, 'Rate limit exceeded; see Retry-After', { 'Retry-After': headerRef('RetryAfter', true) }),
    ...error(500, 'Server fault; the body carries a request_id and no details'),
    ...error(502, 'The payment provider or the store could not be asked; nothing was done, retry (after Retry-After when given)', {
      'Retry-After': headerRef('RetryAfter', false),
    }),
    ...error(503, 'No payment provider is configured for the account (`provider_not_configured`, naming what to set)'),
  };
}

/**
 * `components/schemas`: each resource under its name, written from the same zod schema as the
 * operations that answer with it; a named schema inside another is a reference to it.
 */
function componentSchemas(named: Record<string, z.ZodType>): Record<string, Record<string, unknown>> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io: 'output',
    unrepresentable: 'any',
    target: 'openapi-3.0',
    uri: (id) => `#/components/schemas/${id}`,
  });
  // `$id` is JSON Schema's, not OpenAPI 3.0's: the name is the key.
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $id: _id, $schema: _schema, ...schema }]) => [id, schema as Record<string, unknown>]),
  );
}

/**
 * A response schema described by a media type (`z.unknown().describe('application/pdf')`) is not
 * JSON: the route sends the file itself.
 */
function fileMediaTypeOf(schema: z.ZodType): string | undefined {
  const description = schema.description;
  return description !== undefined && /^[\w.+-]+\/[\w.+-]+$/.test(description) && description !== 'application/json'
    ? description
    : undefined;
}

function successContentOf(route: RouteSpec) {
  if (route.status === 204) return {};
  const file = fileMediaTypeOf(route.response);
  if (file) return { content: { [file]: { schema: { type: 'string', format: 'binary' } } } };
  return { content: { 'application/json': { schema: jsonSchema(route.response, 'output') } } };
}

function successHeadersOf(route: RouteSpec, method: string) {
  const file = fileMediaTypeOf(route.response);
  return headersOf(
    method,
    route.status,
    file ? { 'Content-Disposition': { description: 'The file name (inline)', required: true, schema: { type: 'string' } } } : {},
  );
}

/**
 * The service reads an absent body as `{}`, so a body is optional where `{}` is valid (cancel,
 * pause). The spec's own operations keep the body the spec lists for them (docs/api.md, Endpoints).
 */
function bodyRequired(route: RouteSpec, body: z.ZodType): boolean {
  return !route.extension || !body.safeParse({}).success;
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
        // What the text means once parsed: `page` is an integer (docs/api.md, Paged lists), not a string of digits.
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
            headers: successHeadersOf(route, method),
            ...successContentOf(route),
          },
          ...errorResponsesOf(method, route),
        },
      };
      if (route.body) {
        operation.requestBody = {
          required: bodyRequired(route, route.body),
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
      headers,
      schemas: { Error: errorSchema, ...componentSchemas(namedSchemas) },
    },
    paths,
  };
}
