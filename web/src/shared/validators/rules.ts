/**
 * The form rules (docs/overview.md) as pure functions. Each returns null when the value is fine,
 * or the locale key (and its values) of the message to show.
 */
import { Limits } from '@/shared/api/limits.gen';
import { isCommonPassword } from './commonPasswords';

export interface Invalid {
  key: string;
  values?: Record<string, string | number>;
}
export type Check = Invalid | null;

const invalid = (key: string, values?: Invalid['values']): Invalid =>
  values ? { key, values } : { key };

const text = (value: unknown): string =>
  value === null || value === undefined ? '' : String(value);

// ---- numbers --------------------------------------------------------------------------------

/** A lone 0 or an integer without leading zeros. */
export function nonNegativeInteger(value: unknown): Check {
  return /^(0|[1-9]\d*)$/.test(text(value)) ? null : invalid('validation.positiveInteger');
}

/** An integer of 1 or more without leading zeros. */
export function positiveInteger(value: unknown): Check {
  return /^[1-9]\d*$/.test(text(value)) ? null : invalid('validation.positiveInteger');
}

/**
 * A number with at most `places` decimals inside [min, max]. A number that is only too precise
 * says so ("At most 2 decimal places"), not "Please input 0 ~ 9999", which it already is.
 */
export function decimalInRange(value: unknown, min: number, max: number, places = 2): Check {
  const s = text(value).trim();
  const shape =
    places > 0 ? new RegExp(`^-?(0|[1-9]\\d*)(\\.\\d{1,${places}})?$`) : /^-?(0|[1-9]\d*)$/;
  const n = Number(s);
  if (shape.test(s) && n >= min && n <= max) return null;
  const tooPrecise = places > 0 && /^-?(0|[1-9]\d*)\.\d+$/.test(s) && n >= min && n <= max;
  return tooPrecise
    ? invalid('validation.decimals', { decimals: places })
    : invalid('validation.range', { min, max });
}

/** An integer inside [min, max]. */
export function integerInRange(value: unknown, min: number, max: number): Check {
  return decimalInRange(value, min, max, 0);
}

// ---- content --------------------------------------------------------------------------------

/** Only 0 and 1 (spaces are ignored). */
export function binaryOnly(value: unknown): Check {
  return /^[01]+$/.test(text(value).replace(/\s+/g, ''))
    ? null
    : invalid('validation.legalContent');
}

/** Hexadecimal digits (spaces are ignored). */
export function hexOnly(value: unknown): Check {
  return /^[0-9a-fA-F]+$/.test(text(value).replace(/\s+/g, ''))
    ? null
    : invalid('validation.legalContent');
}

export function lettersDigitsOnly(value: unknown): Check {
  return /^[A-Za-z0-9]+$/.test(text(value)) ? null : invalid('validation.legalContent');
}

export function asciiOnly(value: unknown): Check {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7F]+$/.test(text(value)) ? null : invalid('validation.legalContent');
}

// ---- accounts -------------------------------------------------------------------------------

const EMAIL = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
const PHONE = /^\+?\d{6,15}$/;

export function email(value: unknown): Check {
  return EMAIL.test(text(value).trim()) ? null : invalid('validation.email');
}

/** A login account: a phone number or an email address. */
export function account(value: unknown): Check {
  const s = text(value).trim();
  if (!s) return invalid('validation.accountRequired');
  if (PHONE.test(s)) return null;
  if (/^\+?[\d\s-]+$/.test(s)) return invalid('validation.phone');
  return email(s);
}

/** A password's length, as the server checks one being set. */
const PASSWORD = Limits.SignupRequest.password;

export function password(value: unknown): Check {
  const s = text(value);
  if (/\s/.test(s)) return invalid('validation.noSpaces');
  const { minLength: min, maxLength: max } = PASSWORD;
  return s.length >= min && s.length <= max ? null : invalid('validation.password', { min, max });
}

/**
 * A password being chosen (sign-up, reset, change): the sign-in rule plus none of the commonest
 * passwords. Signing in keeps the plain rule, so an older common password still works.
 */
export function newPassword(value: unknown): Check {
  return (
    password(value) ?? (isCommonPassword(text(value)) ? invalid('validation.passwordCommon') : null)
  );
}

export function confirmMatches(value: unknown, original: unknown): Check {
  return text(value) === text(original) ? null : invalid('validation.passwordMismatch');
}

// ---- plants ---------------------------------------------------------------------------------

export function lengthBetween(value: unknown, min: number, max: number): Check {
  const n = [...text(value).trim()].length;
  return n >= min && n <= max ? null : invalid('validation.length', { min, max });
}

export function maxLength(value: unknown, max: number): Check {
  return [...text(value)].length <= max ? null : invalid('validation.maxLength', { max });
}

const PLANT = Limits.PlantRequest;

export const plantName = (value: unknown): Check =>
  lengthBetween(value, PLANT.name.minLength, PLANT.name.maxLength);
export const capacity = (value: unknown): Check =>
  decimalInRange(value, PLANT.totalPower.minimum, PLANT.totalPower.maximum, 3);
export const price = (value: unknown): Check => decimalInRange(value, 0, 9999, 2);

export interface TimeSegment {
  start: string;
  end: string;
}

const minutes = (hhmm: string): number | null => {
  const m = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(hhmm);
  if (!m) return null;
  const total = Number(m[1]) * 60 + Number(m[2]);
  return total <= 24 * 60 ? total : null;
};

/**
 * Time-of-use segments: 1 to 6, from 00:00, each starting where the previous ended, each
 * ending after it starts, the last ending at 24:00 (or 23:59, the other reading).
 */
export function touSegments(segments: readonly TimeSegment[]): Check {
  if (segments.length === 0) return invalid('validation.touRequired');
  if (segments.length > 6) return invalid('validation.touMax', { max: 6 });
  let expectedStart = 0;
  for (const segment of segments) {
    const start = minutes(segment.start);
    const end = minutes(segment.end);
    if (start === null || end === null || end <= start) return invalid('validation.touRange');
    if (start !== expectedStart) return invalid('validation.touContiguous');
    expectedStart = end;
  }
  const last = segments[segments.length - 1];
  if (!last || !['24:00', '23:59'].includes(last.end)) return invalid('validation.touEnd');
  return null;
}

// ---- files ----------------------------------------------------------------------------------

export interface FileLike {
  name: string;
  size: number;
  type?: string;
}

const extension = (name: string): string => name.slice(name.lastIndexOf('.') + 1).toLowerCase();
const MB = 1024 * 1024;

/** An image of one of `types` (extensions) and at most `maxMb` megabytes. */
export function imageFile(
  file: FileLike,
  maxMb: number,
  types: readonly string[] = ['jpg', 'jpeg', 'png'],
): Check {
  if (!types.includes(extension(file.name))) {
    return invalid('validation.imageType', { types: types.join(', ').toUpperCase() });
  }
  return file.size <= maxMb * MB ? null : invalid('validation.fileSize', { max: maxMb });
}

export const avatarFile = (file: FileLike): Check => imageFile(file, 6);
export const plantImageFile = (file: FileLike): Check => imageFile(file, 10);
export const logoFile = (file: FileLike): Check =>
  imageFile(file, 3, ['jpg', 'jpeg', 'gif', 'png']);

/** A firmware file: .bin or .hex, at most 1.5 MB, name of letters, digits, - _ . (max 40). */
export function firmwareFile(file: FileLike): Check {
  if (!['bin', 'hex'].includes(extension(file.name))) return invalid('validation.firmwareType');
  if (!/^[A-Za-z0-9._-]{1,40}$/.test(file.name))
    return invalid('validation.firmwareName', { max: 40 });
  return file.size <= 1.5 * MB ? null : invalid('validation.fileSize', { max: 1.5 });
}

export function firmwareVersion(value: unknown): Check {
  return /^[A-Za-z0-9_-]+$/.test(text(value)) ? null : invalid('validation.legalContent');
}

/** Compares dotted or plain version strings numerically where they are numbers. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[._-]/);
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const x = pa[i] ?? '0';
    const y = pb[i] ?? '0';
    const nx = Number(x);
    const ny = Number(y);
    const diff = !Number.isNaN(nx) && !Number.isNaN(ny) ? nx - ny : x.localeCompare(y);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

/** A new firmware version must be higher than the latest one (no duplicate, no lower). */
export function versionAbove(value: string, latest: string | null | undefined): Check {
  if (!latest) return null;
  return compareVersions(value, latest) > 0
    ? null
    : invalid('validation.versionNotHigher', { latest });
}

// ---- devices and settings -------------------------------------------------------------------

export function utf8Bytes(value: string): number {
  return new TextEncoder().encode(value).length;
}

export function deviceName(value: unknown): Check {
  return utf8Bytes(text(value)) <= 32 ? null : invalid('validation.deviceName', { max: 32 });
}

/** A parameter value: at most 9999999.00 in size, with at most `decimals` (0-3) decimals. */
export function parameterValue(value: unknown, decimals: 0 | 1 | 2 | 3 = 0): Check {
  const s = text(value).trim();
  const shape = decimals > 0 ? new RegExp(`^-?\\d+(\\.\\d{1,${decimals}})?$`) : /^-?\d+$/;
  if (!shape.test(s))
    return invalid(decimals > 0 ? 'validation.decimals' : 'validation.integer', { decimals });
  return Math.abs(Number(s)) <= 9999999
    ? null
    : invalid('validation.range', { min: -9999999, max: 9999999 });
}

export function roleName(value: unknown): Check {
  const s = text(value).trim();
  if (!s) return invalid('validation.required');
  const max = Limits.RoleRequest.name.maxLength;
  return [...s].length <= max ? null : invalid('validation.maxLength', { max });
}

/** Energy hub account number: lowercase letters, digits, _ or -, at most 16 characters. */
export function energyHubAccount(
  value: unknown,
  max: number = Limits.EnrollmentRequest.utilityAccountNumber.maxLength,
): Check {
  const s = text(value);
  if (!/^[a-z0-9_-]+$/.test(s)) return invalid('validation.energyHubAccount');
  return s.length <= max ? null : invalid('validation.maxLength', { max });
}

export function digitsOnly(value: unknown): Check {
  return /^\d+$/.test(text(value)) ? null : invalid('validation.digitsOnly');
}
