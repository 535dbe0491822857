/**
 * The form rules of the company screens, as pure functions in the style of
 * shared/validators/rules.ts: null when fine, else the locale key (and values) of the message.
 */
import { Limits } from '@/shared/api/limits.gen';
import { maxLength, type Check } from '@/shared/validators';

const text = (value: unknown): string =>
  value === null || value === undefined ? '' : String(value);

const EDIT = Limits.CompanyEdit;

/** The longest each company field may be (the server's limits, from the API document). */
export const COMPANY_LIMITS = {
  name: EDIT.name.maxLength,
  contactName: EDIT.contactName.maxLength,
  phone: EDIT.phone.maxLength,
  address: EDIT.address.maxLength,
  remark: EDIT.remark.maxLength,
} as const;

/** Company name: 1 to the server's 40 characters after trimming. */
export function companyName(value: unknown): Check {
  const n = [...text(value).trim()].length;
  if (n === 0) return { key: 'validation.required' };
  const max = COMPANY_LIMITS.name;
  return n <= max ? null : { key: 'validation.maxLength', values: { max } };
}

export const upTo =
  (max: number) =>
  (value: unknown): Check =>
    maxLength(text(value).trim(), max);

/** A company phone: digits, spaces, + - ( ), at most 20 characters. */
export function companyPhone(value: unknown): Check {
  const s = text(value).trim();
  if (!s) return null;
  if (!/^\+?[\d\s()-]+$/.test(s)) return { key: 'validation.phone' };
  return maxLength(s, COMPANY_LIMITS.phone);
}

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A theme colour: "#rgb" or "#rrggbb"; empty is the default. */
export function themeColor(value: unknown): Check {
  const s = text(value).trim();
  return s === '' || HEX.test(s) ? null : { key: 'company.theme.invalid' };
}

/** "#abc" as "#aabbcc", lower case; anything else as it is (trimmed). */
export function expandHex(value: string): string {
  const s = value.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(s);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}` : s;
}

/** The delete confirmation: the account typed exactly (spaces around it ignored). */
export const confirmed = (typed: string, expected: string): boolean =>
  typed.trim() !== '' && typed.trim() === expected;

/** A staff member's mobile number: optional; digits with an optional leading +, 6-15 digits. */
export function mobile(value: unknown): Check {
  const s = text(value).trim();
  return s === '' || /^\+?\d{6,15}$/.test(s) ? null : { key: 'validation.phone' };
}
