import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (provider API keys, webhook secrets) are AES-256-GCM with APP_KEY:
 * `v1:<iv>:<tag>:<ciphertext>`, each part base64url. GCM authenticates, so a tampered value or the
 * wrong key fails loudly instead of decrypting to garbage.
 */
const VERSION = 'v1';
/**
 * GCM also accepts a truncated tag (down to 4 bytes) unless told its length, and a short tag is far
 * easier to forge; we always write 16 bytes, so anything else is refused.
 */
const AUTH_TAG_BYTES = 16;

export class SecretDecryptionError extends Error {
  constructor() {
    super('A stored secret could not be decrypted: APP_KEY differs from the key it was encrypted with, or the value was altered');
  }
}

export function encryptSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: AUTH_TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join(':');
}

export function decryptSecret(key: Buffer, stored: string): string {
  const [version, iv, tag, ciphertext] = stored.split(':');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new SecretDecryptionError();
  const authTag = Buffer.from(tag, 'base64url');
  if (authTag.length !== AUTH_TAG_BYTES) throw new SecretDecryptionError();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: AUTH_TAG_BYTES });
    decipher.setAuthTag(authTag);
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretDecryptionError();
  }
}
