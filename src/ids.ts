import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniformly random base62 characters (rejection sampling, so no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Prefixes of our own ids; provider ids (cst_, mdt_, tr_, pfl_) pass through unchanged. */
export type IdPrefix =
  | 'acc'
  | 'cus'
  | 'sub'
  | 'rul'
  | 'inv'
  | 'prd'
  | 'lnk'
  | 'fu'
  | 'ord'
  | 'orl'
  | 'pay'
  | 'tok'
  | 'evt'
  | 'mail'
  | 'chg'
  | 'pau'
  | 'clm'
  | 'ivc'
  | 'iow'
  | 'bko'
  | 'crn'
  | 'shp'
  | 'syn'
  | 'stk'
  | 'ptk'
  | 'pss'
  | 'imp'
  | 'rfd'
  | 'aud';

/** An opaque random id such as `cus_4fJ9aZ…`: 16 base62 characters ≈ 95 bits. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(16)}`;
}
