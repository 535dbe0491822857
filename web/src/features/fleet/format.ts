import type { TFunction } from 'i18next';
import { formatNumber, MISSING } from '@/shared/format/number';

const MINUTE = 60_000;

/**
 * How long ago an instant (UTC `YYYY-MM-DDTHH:MM:SSZ`) was: "45 min", "3 h 20 min", "2 d 4 h";
 * `--` for none or an unreadable time.
 */
export function elapsed(since: string | null | undefined, now: number, t: TFunction): string {
  if (!since) return MISSING;
  const at = Date.parse(since);
  if (!Number.isFinite(at)) return MISSING;
  const minutes = Math.max(0, Math.floor((now - at) / MINUTE));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return t('fleet.duration.days', { days, hours });
  if (hours > 0) return t('fleet.duration.hours', { hours, minutes: mins });
  return t('fleet.duration.minutes', { minutes: mins });
}

/** A specific yield (kWh/kWp) with two decimals; `--` when the plant has none. */
export function formatYield(value: number | null | undefined): string {
  return value === null || value === undefined ? MISSING : formatNumber(value, 2);
}
