import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context';
import type { Account } from '../modules/accounts/account';
import { accountOf } from './auth';
import { idempotencyScopeOf } from './idempotency';
import type { IdempotencyScope } from '../db/idempotencyScope';
import { parseOrThrow } from '../validation/messages';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface HandlerInput<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  ctx: AppContext;
  account: Account;
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  /** The request's Idempotency-Key: what an earlier attempt created, and where to record what this one creates. */
  idempotency: IdempotencyScope;
  req: Request;
  res: Response;
}

/**
 * One API operation: its validation schemas, its response schema and one handler. The same object
 * mounts the express route and writes the OpenAPI document, so the two cannot drift apart.
 */
export interface RouteSpec<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  methods: Method[];
  /** express-style path, e.g. `/api/v2/customers/:id` */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** Status of a successful answer. */
  status: 200 | 201 | 202 | 204;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** The sentence of a 422, e.g. "Could not create customer. Some fields contain invalid data". */
  invalidMessage: string;
  /** Beyond the spec's twelve endpoints (documented as an extension in OpenAPI). */
  extension?: boolean;
  /** When the operation can be refused with 409 for a reason of its own: that reason, for OpenAPI. */
  conflict?: string;
  handle(input: HandlerInput<P, Q, B>): Promise<z.input<R>>;
}

/** Identity with inference, so each route is fully typed where it is written. */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  spec: RouteSpec<P, Q, B, R>,
): RouteSpec<P, Q, B, R> {
  return spec;
}

const EMPTY = z.object({});

export function mountRoutes(router: Router, ctx: AppContext, routes: RouteSpec[]): void {
  for (const route of routes) {
    for (const method of route.methods) {
      router[method](route.path, async (req: Request, res: Response) => {
        const params = parseOrThrow(route.params ?? EMPTY, req.params, route.invalidMessage);
        const query = parseOrThrow(route.query ?? EMPTY, req.query, route.invalidMessage);
        const body = route.body ? parseOrThrow(route.body, req.body ?? {}, route.invalidMessage) : undefined;
        const idempotency = idempotencyScopeOf(res);
        const result = await route.handle({ ctx, account: accountOf(res), params, query, body, idempotency, req, res });
        if (res.headersSent) return; // the handler answered itself (a PDF)
        if (route.status === 204) res.status(204).end();
        else res.status(route.status).json(result);
      });
    }
  }
}
