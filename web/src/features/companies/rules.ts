import { email, lengthBetween, maxLength, type Check } from '@/shared/validators';

/** The limits of a company's fields (issue 15's contract). */
export const LIMITS = {
  name: 40,
  contactName: 30,
  phone: 20,
  address: 100,
  remark: 200,
  nickname: 30,
} as const;

/** A company name: 1 to 40 characters (unique, case and outer spaces aside). */
export const companyName = (value: unknown): Check => lengthBetween(value, 1, LIMITS.name);

/** An optional e-mail: empty, or a valid address. */
export function optionalEmail(value: unknown): Check {
  const s = value === null || value === undefined ? '' : String(value).trim();
  return s ? email(s) : null;
}

/** At most `max` characters. */
export const upTo =
  (max: number) =>
  (value: unknown): Check =>
    maxLength(value, max);
