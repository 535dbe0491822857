import { Limits } from '@/shared/api/limits.gen';
import { email, lengthBetween, maxLength, type Check } from '@/shared/validators';

const NEW_COMPANY = Limits.NewCompanyRequest;

/** The limits of a company's fields, as the API document publishes them (issue 15's contract). */
export const LIMITS = {
  name: NEW_COMPANY.name.maxLength,
  contactName: NEW_COMPANY.contactName.maxLength,
  phone: NEW_COMPANY.phone.maxLength,
  address: NEW_COMPANY.address.maxLength,
  remark: NEW_COMPANY.remark.maxLength,
  nickname: NEW_COMPANY.adminNickname.maxLength,
  password: NEW_COMPANY.adminPassword.maxLength,
} as const;

/** A company name: 1 to 40 characters (unique, case and outer spaces aside). */
export const companyName = (value: unknown): Check =>
  lengthBetween(value, NEW_COMPANY.name.minLength, LIMITS.name);

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
