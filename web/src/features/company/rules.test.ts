import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { roleName } from '@/shared/validators';
import { enterpriseTarget, isOwnRole, staffRoleLabel } from './labels';
import { companyName, companyPhone, confirmed, expandHex, mobile, themeColor, upTo } from './rules';

describe('company form rules', () => {
  it('takes a company name of 1 to 40 characters', () => {
    expect(companyName('  ')).toEqual({ key: 'validation.required' });
    expect(companyName('Sunrise Energy')).toBeNull();
    expect(companyName('x'.repeat(40))).toBeNull();
    expect(companyName('x'.repeat(41))).toEqual({
      key: 'validation.maxLength',
      values: { max: 40 },
    });
  });

  it('limits the other fields to the server limits', () => {
    expect(upTo(30)('a'.repeat(30))).toBeNull();
    expect(upTo(30)('a'.repeat(31))).toEqual({ key: 'validation.maxLength', values: { max: 30 } });
    expect(companyPhone('')).toBeNull();
    expect(companyPhone('+34 (91) 555-0100')).toBeNull();
    expect(companyPhone('call me')).toEqual({ key: 'validation.phone' });
    expect(companyPhone('1'.repeat(21))).toEqual({
      key: 'validation.maxLength',
      values: { max: 20 },
    });
  });

  it('takes a theme colour as #rgb, #rrggbb or empty', () => {
    expect(themeColor('')).toBeNull();
    expect(themeColor('#0c0')).toBeNull();
    expect(themeColor('#00CC00')).toBeNull();
    expect(themeColor('green')).toEqual({ key: 'company.theme.invalid' });
    expect(themeColor('#00cc00ff')).toEqual({ key: 'company.theme.invalid' });
    expect(expandHex(' #0C0 ')).toBe('#00cc00');
    expect(expandHex('#1677FF')).toBe('#1677ff');
    expect(expandHex('')).toBe('');
  });

  it('takes an optional mobile number', () => {
    expect(mobile('')).toBeNull();
    expect(mobile('+8613800000000')).toBeNull();
    expect(mobile('12-34')).toEqual({ key: 'validation.phone' });
  });

  it('limits role names to 5 characters (the server rule)', () => {
    expect(roleName('运维')).toBeNull();
    expect(roleName('Field')).toBeNull();
    expect(roleName('Fields')).toEqual({ key: 'validation.maxLength', values: { max: 5 } });
    expect(roleName(' ')).toEqual({ key: 'validation.required' });
  });

  it('confirms a deletion only with the account typed exactly', () => {
    expect(confirmed('', '')).toBe(false);
    expect(confirmed(' sam@example.com ', 'sam@example.com')).toBe(true);
    expect(confirmed('Sam@example.com', 'sam@example.com')).toBe(false);
  });
});

describe('labels', () => {
  const t = ((key: string) => `t:${key}`) as unknown as TFunction;

  it('translates built-in roles and shows custom names as they are', () => {
    expect(staffRoleLabel('company-admin', t)).toBe('t:role.company-admin');
    expect(staffRoleLabel('Ops', t)).toBe('Ops');
    expect(staffRoleLabel('', t)).toBe('--');
  });

  it("finds the user's own role by name", () => {
    expect(isOwnRole({ name: 'Ops' }, 'Ops')).toBe(true);
    expect(isOwnRole({ name: 'Ops' }, 'company-admin')).toBe(false);
    expect(isOwnRole({ name: 'Ops' }, '')).toBe(false);
  });

  it('opens the staff list for /enterprise, else the first company screen allowed', () => {
    expect(enterpriseTarget(new Set(['company.user', 'company.info']))).toBe('/enterprise/user');
    expect(enterpriseTarget(new Set(['company.role.list.view']))).toBe('/enterprise/roles');
    expect(enterpriseTarget(new Set(['company.agent']))).toBe('/enterprise/agents');
  });
});
