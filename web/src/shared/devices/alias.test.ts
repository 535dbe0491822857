import { describe, expect, it } from 'vitest';
import { aliasBytes, aliasTooLong } from './alias';

describe('device names', () => {
  it('count UTF-8 bytes of the trimmed name, at most 32', () => {
    expect(aliasBytes('  Grid meter ')).toBe(10);
    expect(aliasBytes('电表')).toBe(6);
    expect(aliasTooLong('a'.repeat(32))).toBe(false);
    expect(aliasTooLong('é'.repeat(17))).toBe(true);
  });
});
