import express, { type RequestHandler } from 'express';
import { AppError } from '../errors';

export const BODY_LIMIT = '1mb';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * JSON bodies only: a POST/PUT/PATCH that carries a body of another type is a 415. An empty body
 * without a content type is let through and validated as `{}` (it then fails on required fields).
 */
export const requireJsonContentType: RequestHandler = (req, _res, next) => {
  if (!METHODS_WITH_BODY.has(req.method)) return next();
  const length = Number(req.get('content-length') ?? '0');
  const hasBody = length > 0 || req.get('transfer-encoding') !== undefined;
  if (hasBody && !req.is('application/json') && !req.is('application/*+json')) {
    throw new AppError(415, 'Unsupported content type: send the body as application/json', 'unsupported_media_type');
  }
  next();
};

export const parseJsonBody = express.json({ limit: BODY_LIMIT, strict: false, type: ['application/json', 'application/*+json'] });
