import { describe, expect, it } from 'vitest';
import { partNumber } from './rules';

describe('product rules', () => {
  it('takes a part number of 1 to 40 letters, digits and -_./', () => {
    expect(partNumber('SG01LP1-5K/EU_2.0')).toBeNull();
    expect(partNumber('SG01 LP1')).toEqual({ key: 'products.partNumberRule' });
    expect(partNumber('x'.repeat(41))).toMatchObject({ key: 'validation.length' });
  });
});
