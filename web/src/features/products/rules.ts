import { lengthBetween, maxLength, type Check } from '@/shared/validators';

/** The limits of a product's fields (the server enforces the same). */
export const LIMITS = {
  name: 64,
  partNumber: 40,
  manufacturer: 64,
  remark: 200,
} as const;

/** The longest hardware version the form takes. */
export const HARDWARE_MAX = 32;

/** The largest rated power the form takes, in W. */
export const RATED_POWER_MAX = 10_000_000;

export const productName = (value: unknown): Check => lengthBetween(value, 1, LIMITS.name);
/** The most hardware versions a product has. */
export const HARDWARE_COUNT_MAX = 50;

const PART_NUMBER = /^[A-Za-z0-9\-_./]+$/;

/** A part number: 1 to 40 letters, digits and `-_./` (unique, the server checks). */
export function partNumber(value: unknown): Check {
  const length = lengthBetween(value, 1, LIMITS.partNumber);
  if (length) return length;
  const text = typeof value === 'string' ? value.trim() : String(value);
  return PART_NUMBER.test(text) ? null : { key: 'products.partNumberRule' };
}

/** At most `max` characters. */
export const upTo =
  (max: number) =>
  (value: unknown): Check =>
    maxLength(value, max);
