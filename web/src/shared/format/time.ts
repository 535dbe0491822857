import dayjs, { type Dayjs } from 'dayjs';
import { MISSING } from './number';

/**
 * The one rule for device and plant times: shown in the plant's time zone, with the zone
 * named, whatever the browser's zone is. `formatPlantTime(updateAt, 'Europe/Madrid')` reads
 * "2025-06-01 14:05:09 (Europe/Madrid)".
 *
 * `value` is an instant (epoch ms, a Date, or ISO 8601 with `Z` or an offset, like every
 * `updateAt`), or a plant-local wall time as series and realtime answers send it
 * (`YYYY-MM-DD HH:MM:SS`, already in the plant's zone: shown as it is). Without a zone (a
 * device on no plant) or with an unknown one the time is shown in UTC.
 */
export function formatPlantTime(
  value: string | number | Date | null | undefined,
  zone: string | null | undefined,
  options: { seconds?: boolean; zone?: boolean } = {},
): string {
  const { seconds = true, zone: named = true } = options;
  const tz = validZone(zone);
  const text = plantWallTime(value, tz);
  if (text === null) return MISSING;
  const shown = seconds ? text : text.slice(0, 16);
  return named ? `${shown} (${tz})` : shown;
}

/** `YYYY-MM-DD HH:MM:SS` of `value` in `zone` (see [formatPlantTime]); null when unreadable. */
export function plantWallTime(
  value: string | number | Date | null | undefined,
  zone: string,
): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string' && LOCAL.test(value)) return value.slice(0, 19).replace('T', ' ');
  const ms =
    typeof value === 'number' ? value : value instanceof Date ? value.getTime() : Date.parse(value);
  if (!Number.isFinite(ms)) return null;
  return wallTimeOf(ms, zone);
}

/** A wall time without a zone or offset: `YYYY-MM-DD HH:MM[:SS]` (a space or a bare `T`). */
const LOCAL = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?$/;

/** The zone if the browser knows it, else UTC. */
export function validZone(zone: string | null | undefined): string {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD HH:MM:SS` of an instant in `zone` (a valid zone name). */
export function wallTimeOf(ms: number, zone: string): string {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/**
 * Today at the plant (its date in `tz`), not in the browser: Sydney is a day ahead of London.
 * Every day chart opens on it, or a browser behind the plant asks for the plant's yesterday.
 */
export function todayIn(tz: string | null | undefined, now: Date = new Date()): Dayjs {
  return dayjs(wallTimeOf(now.getTime(), validZone(tz)).slice(0, 10));
}
