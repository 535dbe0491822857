import { Limits } from '@/shared/api/limits.gen';
import { lengthBetween, maxLength, type Check } from '@/shared/validators';

/** The limits of a customer type's and a customer's fields, as the API document publishes them. */
export const TYPE_LIMITS = Limits.TypeRequest;
export const CUSTOMER_LIMITS = Limits.CustomerRequest;

const CODE = new RegExp(
  `^[A-Za-z0-9_-]{${TYPE_LIMITS.code.minLength},${TYPE_LIMITS.code.maxLength}}$`,
);

/** A type's code: letters, digits, `-` and `_`, 1 to 20 characters (unique per company). */
export function typeCode(value: unknown): Check {
  const s = value === null || value === undefined ? '' : String(value).trim();
  return CODE.test(s) ? null : { key: 'customerTypes.rule.code' };
}

/** A type's name: 1 to 30 characters. */
export const typeName = (value: unknown): Check =>
  lengthBetween(value, TYPE_LIMITS.name.minLength, TYPE_LIMITS.name.maxLength);

/** A remark (customer or type) or a request's note: at most 200 characters. */
export const remark = (value: unknown): Check => maxLength(value, CUSTOMER_LIMITS.remark.maxLength);
