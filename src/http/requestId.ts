import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

/** Uses the caller's X-Request-Id when it is sane, else a new one; echoed on the response and in logs. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.get('x-request-id');
  const id = incoming && ACCEPTABLE_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
};

export function requestIdOf(locals: Record<string, unknown>): string {
  return typeof locals.requestId === 'string' ? locals.requestId : 'unknown';
}
