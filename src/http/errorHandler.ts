import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../logger';
import { AppError, ValidationError, errorMessage } from '../errors';
import { loggablePath } from './loggablePath';
import { requestIdOf } from './requestId';

interface BodyParserError {
  type: string;
  status: number;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return typeof error === 'object' && error !== null && 'type' in error && 'status' in error;
}

/** What a failure looks like to a client: `{"status", "error", "code", "fields"?}`. */
export function errorBody(error: AppError, requestId?: string) {
  return {
    status: error.status,
    error: error.message,
    code: error.code,
    ...(error instanceof ValidationError ? { fields: error.fields } : {}),
    ...(requestId && error.status >= 500 ? { request_id: requestId } : {}),
  };
}

function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (isBodyParserError(error)) {
    if (error.type === 'entity.too.large') return new AppError(413, 'The request body is larger than 1 MB', 'payload_too_large');
    if (error.type === 'entity.parse.failed') return new AppError(400, 'The request body is not valid JSON', 'malformed_json');
    if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
      return new AppError(415, 'Unsupported body encoding: send UTF-8 JSON', 'unsupported_media_type');
    }
    if (error.status >= 400 && error.status < 500) return new AppError(400, 'The request body could not be read', 'bad_request');
  }
  return null;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const requestId = requestIdOf(res.locals);
    const known = toAppError(error);
    if (known) {
      if (known.status >= 500) logger.warn('request failed', { requestId, status: known.status, code: known.code, error: known.message });
      if (known.status === 401) res.setHeader('WWW-Authenticate', 'Bearer'); // RFC 6750
      if ('retryAfterSeconds' in known && typeof known.retryAfterSeconds === 'number')
        res.setHeader('Retry-After', String(known.retryAfterSeconds));
      res.status(known.status).json(errorBody(known, requestId));
      return;
    }
    logger.error('unhandled error', {
      requestId,
      method: req.method,
      path: loggablePath(req.originalUrl),
      error: errorMessage(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    res.status(500).json({
      status: 500,
      error: 'Internal server error; quote the request id when reporting it',
      code: 'server_error',
      request_id: requestId,
    });
  };
}

export const notFoundRoute: RequestHandler = (req) => {
  throw new AppError(404, `No route for ${req.method} ${req.path}`, 'route_not_found');
};
