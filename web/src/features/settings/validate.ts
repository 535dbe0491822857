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

/** The battery's state-of-charge levels, in the order they must keep. */
export const BATTERY_LEVELS = ['batteryShutdownCap', 'batteryLowCap', 'batteryRestartCap'] as const;

/**
 * The server's rule between the battery levels (domain::settings::levels): shutdown <= low <
 * restart, so the inverter warns before it cuts the battery off and does not switch it on and
 * off around one value. `level` answers a level's value on the form; a pair with a value that
 * is not a number is not checked (its own field says why). The problem of `key`, naming the
 * level it must respect as `other` (a key: the caller translates it).
 */
export function checkLevels(key: string, level: (key: string) => unknown): Problem {
  const value = (k: string) => {
    const text = String(level(k) ?? '').trim();
    return text !== '' && Number.isFinite(Number(text)) ? Number(text) : null;
  };
  const [shutdown, low, restart] = BATTERY_LEVELS.map(value);
  const own = value(key);
  if (own === null) return null;
  const must = (relation: 'AtLeast' | 'Above' | 'AtMost' | 'Below', other: string, n: number) => ({
    key: `settings.invalid.level${relation}`,
    values: { other, value: n },
  });
  // Each level against its neighbours: (the other level, its value, whether it must stay below it, strictly).
  const pairs: [string, number | null | undefined, boolean, boolean][] =
    key === 'batteryShutdownCap'
      ? [
          ['batteryLowCap', low, true, false],
          ['batteryRestartCap', restart, true, true],
        ]
      : key === 'batteryLowCap'
        ? [
            ['batteryShutdownCap', shutdown, false, false],
            ['batteryRestartCap', restart, true, true],
          ]
        : key === 'batteryRestartCap'
          ? [
              ['batteryLowCap', low, false, true],
              ['batteryShutdownCap', shutdown, false, true],
            ]
          : [];
  for (const [other, n, below, strict] of pairs) {
    if (n == null) continue;
    if (below && (strict ? own >= n : own > n)) return must(strict ? 'Below' : 'AtMost', other, n);
    if (!below && (strict ? own <= n : own < n))
      return must(strict ? 'Above' : 'AtLeast', other, n);
  }
  return null;
}
