import type { Knex } from 'knex';
import type { Account } from './account';
import { newId, randomBase62 } from '../../ids';
import { NO_PROVIDER_SETTINGS } from '../../providers/settings';
import { msBefore, toDbDateTime, type Clock } from '../../time';
import { accountsRepository, apiTokensRepository, type AccountRow } from './repository';
import { generateToken, hashToken, looksLikeToken, TOKEN_DISPLAY_LENGTH } from './tokens';

export class AccountError extends Error {}

export async function findOrCreateAccount(db: Knex, clock: Clock, name: string): Promise<AccountRow> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 191) throw new AccountError('An account name must be 1 to 191 characters');
  const existing = await accountsRepository.findByName(db, trimmed);
  if (existing) return existing;
  const now = toDbDateTime(clock.now());
  const row: AccountRow = {
    id: newId('acc'),
    name: trimmed,
    bookkeeping_system: null,
    public_ref: randomBase62(24),
    webhook_secret_encrypted: null,
    display_name: null,
    contact_email: null,
    creditor_id: null,
    portal_allowed_actions: null,
    portal_max_pause_days: null,
    portal_mails: null,
    ...NO_PROVIDER_SETTINGS,
    created_at: now,
    updated_at: now,
  };
  await accountsRepository.insert(db, row);
  return row;
}

export async function requireAccount(db: Knex, name: string): Promise<AccountRow> {
  const account = await accountsRepository.findByName(db, name.trim());
  if (!account) throw new AccountError(`No account named "${name}"`);
  return account;
}

/** Creates a token for the account (creating the account if needed); the clear token is returned once. */
export async function createToken(db: Knex, clock: Clock, accountName: string): Promise<{ account: AccountRow; token: string }> {
  const account = await findOrCreateAccount(db, clock, accountName);
  const token = generateToken();
  await apiTokensRepository.insert(db, {
    id: newId('tok'),
    account_id: account.id,
    prefix: token.slice(0, TOKEN_DISPLAY_LENGTH),
    token_hash: hashToken(token),
    created_at: toDbDateTime(clock.now()),
    last_used_at: null,
    revoked_at: null,
  });
  return { account, token };
}

export async function listTokens(db: Knex, accountName: string) {
  const account = await requireAccount(db, accountName);
  return apiTokensRepository.listForAccount(db, account.id);
}

export async function revokeToken(db: Knex, clock: Clock, prefix: string): Promise<void> {
  const token = await apiTokensRepository.findByPrefix(db, prefix.trim());
  if (!token) throw new AccountError(`No token with prefix "${prefix}"`);
  if (token.revoked_at) throw new AccountError(`Token ${prefix} was already revoked`);
  await apiTokensRepository.revoke(db, token.id, toDbDateTime(clock.now()));
}

export async function setBookkeepingSystem(db: Knex, clock: Clock, accountName: string, system: string | null) {
  const account = await requireAccount(db, accountName);
  await accountsRepository.setBookkeepingSystem(db, account.id, system, toDbDateTime(clock.now()));
}

/**
 * Names the account's bookkeeping system in the transaction that stores the system's connection (`store`: the
 * adapter writing its own tables), both or neither: an account never names a system it has no connection to, and a
 * connection stored for an account that does not name its system would go unused.
 */
export async function saveBookkeepingConnection(
  db: Knex,
  clock: Clock,
  accountName: string,
  system: string,
  store: (trx: Knex.Transaction) => Promise<void>,
): Promise<void> {
  await db.transaction(async (trx) => {
    const account = await requireAccount(trx, accountName);
    await store(trx);
    await accountsRepository.setBookkeepingSystem(trx, account.id, system, toDbDateTime(clock.now()));
  });
}

/** What buyers are told about the merchant; a null clears that part, an absent key leaves it. */
export type ProfileChanges = Partial<Pick<AccountRow, 'display_name' | 'contact_email' | 'creditor_id'>>;

export async function setProfile(db: Knex, clock: Clock, accountName: string, changes: ProfileChanges) {
  const account = await requireAccount(db, accountName);
  await accountsRepository.update(db, account.id, { ...changes, updated_at: toDbDateTime(clock.now()) });
}

/** What the customer portal allows; null columns mean the defaults (see portalSettings). */
export type PortalChanges = Partial<Pick<AccountRow, 'portal_allowed_actions' | 'portal_max_pause_days' | 'portal_mails'>>;

export async function setPortalSettings(db: Knex, clock: Clock, accountName: string, changes: PortalChanges) {
  const account = await requireAccount(db, accountName);
  await accountsRepository.update(db, account.id, { ...changes, updated_at: toDbDateTime(clock.now()) });
}

export interface Authenticated {
  account: Account;
  tokenId: string;
}

/** The account behind a bearer token, or null. Records last use at most once a minute. */
export async function authenticateToken(db: Knex, clock: Clock, token: string): Promise<Authenticated | null> {
  if (!looksLikeToken(token)) return null;
  const found = await apiTokensRepository.findActiveByHash(db, hashToken(token));
  if (!found) return null;
  const now = clock.now();
  const minuteAgo = toDbDateTime(msBefore(now, 60_000));
  if (found.last_used_at === null || found.last_used_at < minuteAgo) {
    await apiTokensRepository.touch(db, found.token_id, toDbDateTime(now), minuteAgo);
  }
  return {
    tokenId: found.token_id,
    account: { id: found.account_id, name: found.account_name, bookkeeping_system: found.bookkeeping_system, public_ref: found.public_ref },
  };
}
