import type { Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../context';
import type { Account } from '../modules/accounts/account';
import { authenticateToken, type Authenticated } from '../modules/accounts/service';
import { UnauthenticatedError } from '../errors';

/** Requires `Authorization: Bearer <token>`; stores the account for the handlers. */
export function requireToken(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) throw new UnauthenticatedError();
    const authenticated = await authenticateToken(ctx.db, ctx.clock, match[1]);
    if (!authenticated) throw new UnauthenticatedError('Unauthenticated: the token is unknown or revoked');
    res.locals.auth = authenticated;
    next();
  };
}

export function authOf(res: Response): Authenticated {
  const auth = res.locals.auth as Authenticated | undefined;
  if (!auth) throw new UnauthenticatedError();
  return auth;
}

export function accountOf(res: Response): Account {
  return authOf(res).account;
}

export type AuthenticatedRequest = Request;
