import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (provider API keys, webhook secrets) are AES-256-GCM with APP_KEY:
 * `v1:<iv>:<tag>:<ciphertext>`, each part base64url. GCM authenticates, so a tampered value or the
 * wrong key fails loudly instead of decrypting to garbage.
 */
const VERSION = 'v1';

export class SecretDecryptionError extends Error {
  constructor() {
    super('A stored secret could not be decrypted: APP_KEY differs from the key it was encrypted with, or the value was altered');
  }
}

export function encryptSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join(':');
}

export function decryptSecret(key: Buffer, stored: string): string {
  const [version, iv, tag, ciphertext] = stored.split(':');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new SecretDecryptionError();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretDecryptionError();
  }
}
