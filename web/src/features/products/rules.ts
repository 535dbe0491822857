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
export const partNumber = (value: unknown): Check => lengthBetween(value, 1, LIMITS.partNumber);

/** At most `max` characters. */
export const upTo =
  (max: number) =>
  (value: unknown): Check =>
    maxLength(value, max);
