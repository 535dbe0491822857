import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptPassword } from './api';

describe('encryptPassword', () => {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  // what GET /anonymous/publicKey answers: base64 DER SubjectPublicKeyInfo, one line
  const der = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

  it('encrypts with the base64 DER key into a base64 block of the key size, randomly padded', async () => {
    const a = await encryptPassword(der, 'Admin12345');
    const b = await encryptPassword(der, 'Admin12345');
    expect(Buffer.from(a, 'base64')).toHaveLength(256);
    expect(a).not.toBe(b);
  });

  it('fails loudly on a key it cannot use', async () => {
    await expect(encryptPassword('bm90IGEga2V5', 'Admin12345')).rejects.toThrow();
  });
});
