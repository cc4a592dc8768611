import { createHash, randomBytes } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { AppContext } from '../context';
import { isUniqueViolation } from '../db/connect';
import { fromDbDateTime, msAfter, toDbDateTime } from '../time';
import { accountOf } from './auth';
import { ConflictError, ValidationError, errorMessage } from '../errors';
import { idempotencyKeysRepository, type HeldKey } from './idempotencyRepository';
import { WITHOUT_IDEMPOTENCY_KEY, type IdempotencyScope } from '../db/idempotencyScope';
import { requestIdOf } from './requestId';

/**
 * `Idempotency-Key` on every POST under /api/v2 (PUT, PATCH and DELETE are idempotent by nature and
 * GET changes nothing, so the header is ignored there). The first answer to a key is kept for 24
 * hours per account and replayed to any retry of the same request; the database's primary key
 * decides which of two concurrent requests runs.
 *
 * A request that dies (a crash, or an answer of 500 and above such as a provider timeout) leaves its
 * key `running`: nothing is forgotten. The key is locked only until `locked_until` (released at once
 * on a 5xx answer, about a minute after a crash); then a retry takes it over and resumes the request
 * where it stopped: the resource the dead request recorded (`resource_id`, written in the same
 * transaction as the resource itself) is finished, never created a second time.
 *
 * A request that was only slow may still finish after such a take-over. Every claim and take-over
 * writes a new `lock_token`, and the request's writes to its key (the resource, the answer, the
 * release) all require the token it took: the request holding the key now wins, and the one that
 * lost it answers its own client without touching the key.
 */

const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const MAX_KEY_LENGTH = 255;
const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** How often a key that keeps changing hands (released, expired) is tried before answering 409. */
const CLAIM_ATTEMPTS = 3;

export type { IdempotencyKeyRow } from './idempotencyRepository';

/** The header as documented in OpenAPI on every POST operation. */
export const idempotencyKeyParameter = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key with the same request within 24 hours replays the first answer (status and body) ' +
    'with `Idempotent-Replayed: true` and does nothing again; the same key with another request answers 422; ' +
    'while the first request is still running, 409 with `Retry-After` (seconds until its lock runs out), after which the key ' +
    'replays its answer. Scoped to the account. Answers of 500 and above are not kept: ' +
    'a retry with the same key resumes the request where it stopped (the same payment or customer, never a second one).',
  schema: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH, pattern: '^[\\x20-\\x7E]+$' },
};

class IdempotencyKeyReusedError extends ValidationError {
  override readonly code = 'idempotency_key_reused';

  constructor() {
    super('This Idempotency-Key was already used for a different request', {
      [IDEMPOTENCY_HEADER]: ['The Idempotency-Key header was already used for a different request; send a new key for a new request.'],
    });
  }
}

/** The error handler sends `retryAfterSeconds` as the Retry-After header. */
class IdempotencyInProgressError extends ConflictError {
  constructor(readonly retryAfterSeconds: number) {
    super('A request with this Idempotency-Key is still being processed', 'idempotency_in_progress');
  }
}

/** By the end of the holder's lock the key has its answer, or a retry may take the key over. */
function inProgress(lockedUntil: string | null, now: Date): IdempotencyInProgressError {
  const lockLeftMs = lockedUntil === null ? 0 : fromDbDateTime(lockedUntil).getTime() - now.getTime();
  return new IdempotencyInProgressError(Math.max(1, Math.ceil(lockLeftMs / 1000)));
}

function keyProblem(key: string): string | null {
  if (key.length === 0) return 'The Idempotency-Key header must not be empty.';
  if (key.length > MAX_KEY_LENGTH) return `The Idempotency-Key header must not be greater than ${MAX_KEY_LENGTH} characters.`;
  if (!PRINTABLE_ASCII.test(key)) return 'The Idempotency-Key header must contain only printable ASCII characters.';
  return null;
}

/** JSON with object keys sorted at every depth, so formatting and key order do not make another request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson(record[name])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The URL keeps its query string: a request to another address is another request. */
function requestHash(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${canonicalJson(body)}`)
    .digest('hex');
}

type Claim = { kind: 'claimed'; row: HeldKey } | { kind: 'replay'; status: number; body: string };

const newLockToken = () => randomBytes(16).toString('hex');

const later = (now: Date, ms: number) => toDbDateTime(msAfter(now, ms));

/**
 * Takes the key for this request, or tells what its holder answered. Throws 409 / 422 when it cannot.
 * A running key whose lock has passed belonged to a request that died or is slow: it is taken over
 * with one conditional update on the row as it was read (its holder's token and resource), so of two
 * retries only one resumes it, and a resource its holder recorded meanwhile is resumed, not made again.
 */
async function claimKey(ctx: AppContext, accountId: string, key: string, hash: string): Promise<Claim> {
  const lockMs = ctx.config.IDEMPOTENCY_LOCK_SECONDS * 1000;
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
    const now = ctx.clock.now();
    const row: HeldKey = {
      account_id: accountId,
      idempotency_key: key,
      request_hash: hash,
      state: 'running',
      locked_until: later(now, lockMs),
      lock_token: newLockToken(),
      resource_id: null,
      response_status: null,
      response_body: null,
      created_at: toDbDateTime(now),
      expires_at: later(now, KEY_LIFETIME_MS),
    };
    try {
      await idempotencyKeysRepository.insert(ctx.db, row);
      return { kind: 'claimed', row };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const held = await idempotencyKeysRepository.find(ctx.db, accountId, key);
    if (!held) continue; // removed by the purge job meanwhile
    if (held.expires_at <= row.created_at) {
      // Only the expired row goes: a fresh claim by a concurrent request keeps its key.
      await idempotencyKeysRepository.deleteExpired(ctx.db, held);
      continue;
    }
    if (held.request_hash !== hash) throw new IdempotencyKeyReusedError();
    if (held.state === 'done') return { kind: 'replay', status: held.response_status as number, body: held.response_body ?? '' };
    if (held.locked_until !== null && held.locked_until > row.created_at) throw inProgress(held.locked_until, now);
    const takenOver = await idempotencyKeysRepository.takeOver(ctx.db, held, row);
    if (takenOver === 1) return { kind: 'claimed', row: { ...held, locked_until: row.locked_until, lock_token: row.lock_token } };
  }
  // The key kept changing hands: whoever holds it now answers within about a second or releases it.
  throw inProgress(null, ctx.clock.now());
}

function scopeOf(ctx: AppContext, claimed: HeldKey): IdempotencyScope {
  return {
    resumedResourceId: claimed.resource_id,
    async remember(db, resourceId) {
      const recorded = await idempotencyKeysRepository.recordResource(db, claimed, resourceId);
      if (recorded === 1) return;
      const holder = await idempotencyKeysRepository.find(db, claimed.account_id, claimed.idempotency_key);
      throw inProgress(holder?.locked_until ?? null, ctx.clock.now());
    },
  };
}

const SCOPE = Symbol('idempotency scope');

/** The scope of the current request (WITHOUT_IDEMPOTENCY_KEY when it carries no key). */
export function idempotencyScopeOf(res: Response): IdempotencyScope {
  const scope = (res.locals as { [SCOPE]?: IdempotencyScope })[SCOPE];
  return scope ?? WITHOUT_IDEMPOTENCY_KEY;
}

const NOT_KEPT = Symbol('answer not kept');

/**
 * For an answer that carries a secret shown once (a portal link): it is not kept for replay, so the
 * database never holds it. The key is released as after a 5xx, and a retry with it runs again.
 */
export function answerNotKept(res: Response): void {
  (res.locals as { [NOT_KEPT]?: boolean })[NOT_KEPT] = true;
}

function replay(res: Response, stored: { status: number; body: string }): void {
  res.status(stored.status).setHeader('Idempotent-Replayed', 'true');
  if (stored.body === '') {
    res.end();
    return;
  }
  res.type('application/json').send(stored.body);
}

function bodyText(chunk: unknown): string {
  if (typeof chunk === 'string') return chunk;
  if (Buffer.isBuffer(chunk)) return chunk.toString('utf8');
  return '';
}

/**
 * Keeps the answer before it leaves: the row becomes `done` (answers below 500, including the error
 * handler's 4xx) or stays `running` with its lock released (500 and above: the outcome may be
 * unknown, and a retry must resume, not start again) before the client can see the answer, so an
 * immediate retry never finds the key still locked. A request whose key was taken over meanwhile
 * settles nothing: its answer goes to its own client only, the key keeps the holder's.
 */
function settleOnAnswer(ctx: AppContext, res: Response, claimed: HeldKey): void {
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  let settling = false;
  res.end = ((...args: unknown[]) => {
    if (settling) return end(...args);
    settling = true;
    // Headers already out means the body was streamed in parts, which cannot be replayed.
    const replayable = res.statusCode < 500 && !res.headersSent && !(res.locals as { [NOT_KEPT]?: boolean })[NOT_KEPT];
    const settle = replayable
      ? idempotencyKeysRepository.updateWhileHeld(ctx.db, claimed, {
          state: 'done',
          locked_until: null,
          response_status: res.statusCode,
          response_body: bodyText(args[0]),
        })
      : idempotencyKeysRepository.updateWhileHeld(ctx.db, claimed, { locked_until: toDbDateTime(ctx.clock.now()) });
    void settle
      .then((settled) => {
        if (settled > 0) return;
        // Worth a look when frequent: requests outlast IDEMPOTENCY_LOCK_SECONDS.
        ctx.logger.warn('idempotency key taken over by a retry meanwhile; answer not kept', {
          requestId: requestIdOf(res.locals),
          status: res.statusCode,
        });
      })
      .catch((error: unknown) => {
        ctx.logger.error('idempotency key not settled', {
          requestId: requestIdOf(res.locals),
          error: errorMessage(error),
        });
      })
      .then(() => end(...args));
    return res;
  }) as Response['end'];
}

/** Mount after authentication and JSON parsing, before the routes. */
export function idempotentPosts(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    const key = req.get(IDEMPOTENCY_HEADER);
    if (req.method !== 'POST' || key === undefined) return next();
    const problem = keyProblem(key);
    if (problem) throw new ValidationError('The Idempotency-Key header is invalid', { [IDEMPOTENCY_HEADER]: [problem] });
    const hash = requestHash(req.method, req.originalUrl, req.body ?? {});
    const claim = await claimKey(ctx, accountOf(res).id, key, hash);
    if (claim.kind === 'replay') return replay(res, claim);
    settleOnAnswer(ctx, res, claim.row);
    (res.locals as { [SCOPE]?: IdempotencyScope })[SCOPE] = scopeOf(ctx, claim.row);
    next();
  };
}
