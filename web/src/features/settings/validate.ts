import type { Field } from './api';

/** The largest magnitude any numeric setting may take (docs/overview.md, "Limits"). */
export const MAX_VALUE = 9_999_999;

/** Why a value is refused, as a translation key with its values; null when valid. */
export type Problem = { key: string; values?: Record<string, string | number> } | null;

/**
 * The rule the server applies (domain::settings): numbers within the field's range with at
 * most its decimals and never beyond 9999999.00; times HH:MM; booleans; one of the choices.
 */
export function check(field: Field, raw: string | boolean | undefined): Problem {
  const text = typeof raw === 'boolean' ? String(raw) : (raw ?? '').trim();
  switch (field.type) {
    case 'number': {
      const pattern =
        field.decimals > 0 ? new RegExp(`^-?\\d+(\\.\\d{1,${field.decimals}})?$`) : /^-?\d+$/;
      if (!pattern.test(text))
        return field.decimals > 0
          ? { key: 'settings.invalid.decimals', values: { n: field.decimals } }
          : { key: 'settings.invalid.integer' };
      const value = Number(text);
      if (Math.abs(value) > MAX_VALUE || value < field.min || value > field.max)
        return { key: 'settings.invalid.range', values: { min: field.min, max: field.max } };
      return null;
    }
    case 'time': {
      const m = /^(\d{1,2}):(\d{2})$/.exec(text);
      return m && Number(m[1]) < 24 && Number(m[2]) < 60 ? null : { key: 'settings.invalid.time' };
    }
    case 'bool':
      return ['true', 'false', '1', '0'].includes(text) ? null : { key: 'settings.invalid.bool' };
    case 'choice':
      return field.choices.includes(text) ? null : { key: 'settings.invalid.choice' };
  }
}
