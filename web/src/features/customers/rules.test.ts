import { describe, expect, it } from 'vitest';
import { remark, typeCode, typeName } from './rules';

describe('customer type rules', () => {
  it('takes a code of 1-20 letters, digits, - and _', () => {
    expect(typeCode('RES-01_a')).toBeNull();
    expect(typeCode('x'.repeat(20))).toBeNull();
    expect(typeCode('x'.repeat(21))).toEqual({ key: 'customerTypes.rule.code' });
    expect(typeCode('')).toEqual({ key: 'customerTypes.rule.code' });
    expect(typeCode('two words')).toEqual({ key: 'customerTypes.rule.code' });
    expect(typeCode('家庭')).toEqual({ key: 'customerTypes.rule.code' });
  });

  it('takes a name of 1-30 characters and a remark of at most 200', () => {
    expect(typeName('Residential')).toBeNull();
    expect(typeName('家'.repeat(30))).toBeNull();
    expect(typeName('a'.repeat(31))).toEqual({
      key: 'validation.length',
      values: { min: 1, max: 30 },
    });
    expect(remark('r'.repeat(200))).toBeNull();
    expect(remark('r'.repeat(201))).toEqual({ key: 'validation.maxLength', values: { max: 200 } });
  });
});
