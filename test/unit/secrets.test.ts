import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret, SecretDecryptionError } from '../../src/crypto/secrets';

describe('secrets at rest', () => {
  const key = randomBytes(32);

  it('When a secret is encrypted, then it decrypts to the same text and the stored form does not contain it', () => {
    const stored = encryptSecret(key, 'test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM');
    expect(stored).not.toContain('dHar4XY7');
    expect(stored).toMatch(/^v1:/);
    expect(decryptSecret(key, stored)).toBe('test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM');
  });

  it('When the same secret is encrypted twice, then the ciphertexts differ (a fresh IV each time)', () => {
    expect(encryptSecret(key, 'same')).not.toBe(encryptSecret(key, 'same'));
  });

  it('When the key is wrong or the value was altered, then decryption fails loudly', () => {
    const stored = encryptSecret(key, 'secret');
    expect(() => decryptSecret(randomBytes(32), stored)).toThrow(SecretDecryptionError);
    const parts = stored.split(':');
    const flipped = Buffer.from(parts[3] ?? '', 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => decryptSecret(key, [parts[0], parts[1], parts[2], flipped.toString('base64url')].join(':'))).toThrow(
      SecretDecryptionError,
    );
    expect(() => decryptSecret(key, 'plain-text')).toThrow(SecretDecryptionError);
  });

  it('When the stored tag was cut to 4 bytes, then it is refused although GCM would accept a short tag', () => {
    const stored = encryptSecret(key, 'secret');
    const [version, iv, tag, ciphertext] = stored.split(':');
    const shortTag = Buffer.from(tag ?? '', 'base64url')
      .subarray(0, 4)
      .toString('base64url');
    expect(() => decryptSecret(key, [version, iv, shortTag, ciphertext].join(':'))).toThrow(SecretDecryptionError);
  });

  it('When a secret is encrypted, then its stored tag is 16 bytes', () => {
    const [, , tag] = encryptSecret(key, 'secret').split(':');
    expect(Buffer.from(tag ?? '', 'base64url')).toHaveLength(16);
  });
});
