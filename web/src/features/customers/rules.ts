import { lengthBetween, maxLength, type Check } from '@/shared/validators';

/** A type's code: letters, digits, `-` and `_`, 1 to 20 characters (unique per company). */
export function typeCode(value: unknown): Check {
  const s = value === null || value === undefined ? '' : String(value).trim();
  return /^[A-Za-z0-9_-]{1,20}$/.test(s) ? null : { key: 'customerTypes.rule.code' };
}

/** A type's name: 1 to 30 characters. */
export const typeName = (value: unknown): Check => lengthBetween(value, 1, 30);

/** A remark (customer or type): at most 200 characters. */
export const remark = (value: unknown): Check => maxLength(value, 200);
