import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS, isCommonPassword } from './commonPasswords';

describe('common passwords', () => {
  it('are the list the server refuses (crates/domain/src/common_passwords.txt)', () => {
    // the tests run in web/
    const server = readFileSync(
      path.resolve(process.cwd(), '../crates/domain/src/common_passwords.txt'),
      'utf8',
    )
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect([...COMMON_PASSWORDS].sort()).toEqual(server.sort());
  });

  it('refuse listed passwords, repeats and runs whatever the case', () => {
    for (const p of ['password', 'Password1', 'aaaaaa', '123456', '654321', 'abcdef', 'QWERTY']) {
      expect(isCommonPassword(p), p).toBe(true);
    }
    for (const p of ['121212', 'abcabc', '1qaz2wsx', 'iloveyou', 'admin123']) {
      expect(isCommonPassword(p), p).toBe(true);
    }
  });

  it('let ordinary passwords through', () => {
    for (const p of ['secret123', 'Owner12345', 'tXq7!mRv', '1234567a', 'aaaaab']) {
      expect(isCommonPassword(p), p).toBe(false);
    }
  });
});
