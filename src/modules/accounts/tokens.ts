import { createHash } from 'node:crypto';
import { randomBase62 } from '../../ids';

export const TOKEN_PREFIX = 'rps_';
const TOKEN_BODY_LENGTH = 40; // ≈ 238 bits
/** Characters of a token kept in clear for `tokens list` and `tokens revoke`. */
export const TOKEN_DISPLAY_LENGTH = TOKEN_PREFIX.length + 8;

export function generateToken(): string {
  return `${TOKEN_PREFIX}${randomBase62(TOKEN_BODY_LENGTH)}`;
}

/**
 * Tokens are stored only as SHA-256. A lookup by hash compares fixed-size digests inside the
 * database index, so no timing of ours depends on how much of a guessed token was right.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function looksLikeToken(value: string): boolean {
  return /^rps_[0-9A-Za-z]{32,128}$/.test(value);
}
