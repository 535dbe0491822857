import { describe, expect, it } from 'vitest';
import { companyName, LIMITS, optionalEmail, upTo } from './rules';

describe('company rules', () => {
  it('takes a name of 1 to 40 characters', () => {
    expect(companyName('Acme Solar')).toBeNull();
    expect(companyName('阳'.repeat(40))).toBeNull();
    expect(companyName('a'.repeat(41))).toEqual({
      key: 'validation.length',
      values: { min: 1, max: 40 },
    });
    expect(companyName('   ')).not.toBeNull();
  });

  it('takes an empty or a valid e-mail', () => {
    expect(optionalEmail('')).toBeNull();
    expect(optionalEmail(undefined)).toBeNull();
    expect(optionalEmail('ann@acme.example')).toBeNull();
    expect(optionalEmail('ann@')).toEqual({ key: 'validation.email' });
  });

  it('limits the other fields as the server does', () => {
    expect(upTo(LIMITS.address)('a'.repeat(100))).toBeNull();
    expect(upTo(LIMITS.address)('a'.repeat(101))).toEqual({
      key: 'validation.maxLength',
      values: { max: 100 },
    });
    expect([LIMITS.contactName, LIMITS.phone, LIMITS.remark]).toEqual([30, 20, 200]);
  });
});
