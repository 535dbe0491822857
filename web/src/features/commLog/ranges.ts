import dayjs, { type Dayjs } from 'dayjs';

/** The time-range presets of the log (it keeps days, not months: docs/operations.md). */
export const LOG_PRESETS = ['last15m', 'lastHour', 'last6h', 'last24h', 'today', 'last3d'] as const;
export type LogPreset = (typeof LOG_PRESETS)[number];

/** [start, end] of a preset, ending now (today: from midnight). */
export function logPresetRange(preset: LogPreset, now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  const end = now.endOf('minute');
  switch (preset) {
    case 'last15m':
      return [now.subtract(15, 'minute').startOf('minute'), end];
    case 'lastHour':
      return [now.subtract(1, 'hour').startOf('minute'), end];
    case 'last6h':
      return [now.subtract(6, 'hour').startOf('minute'), end];
    case 'last24h':
      return [now.subtract(24, 'hour').startOf('minute'), end];
    case 'today':
      return [now.startOf('day'), end];
    case 'last3d':
      return [now.subtract(3, 'day').startOf('minute'), end];
  }
}

/** The URL's form of a range end: local `YYYY-MM-DDTHH:mm`. */
export const toMinute = (d: Dayjs | null | undefined): string =>
  d ? d.format('YYYY-MM-DDTHH:mm') : '';
