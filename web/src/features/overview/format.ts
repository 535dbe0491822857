import type { Dayjs } from 'dayjs';
import { formatNumber, MISSING } from '@/shared/format/number';

export type TempUnit = 'C' | 'F';

/** A temperature the server sends in °C (as a numeric string), in the user's unit. */
export function formatTemp(celsius: string | null | undefined, unit: TempUnit): string {
  if (celsius === null || celsius === undefined || celsius === '') return MISSING;
  const c = Number(celsius);
  if (!Number.isFinite(c)) return MISSING;
  const v = unit === 'F' ? (c * 9) / 5 + 32 : c;
  return `${Math.round(v * 10) / 10} °${unit}`;
}

/** Plant types (docs/overview.md): 1 grid-tied, 2 and 3 energy storage (AC or DC coupled). */
export function isStorage(type: number): boolean {
  return type === 2 || type === 3;
}

/** Current power over the installed capacity, as a percentage ('--' without a capacity). */
export function powerRatio(efficiency: number | null | undefined, capacityKwp: number): string {
  if (efficiency === null || efficiency === undefined || !(capacityKwp > 0)) return MISSING;
  return `${formatNumber(Math.round(efficiency * 1000) / 10)} %`;
}

/**
 * The days a generation download covers for the chart's period: the chosen month or year,
 * never past the plant's today; a day downloads its month; total has no range (null).
 */
export function downloadRange(
  period: 'day' | 'month' | 'year' | 'total',
  date: Dayjs,
  today: Dayjs,
): [string, string] | null {
  if (period === 'total') return null;
  const unit = period === 'year' ? 'year' : 'month';
  const start = date.startOf(unit);
  const end = date.endOf(unit).isAfter(today, 'day') ? today : date.endOf(unit);
  return [start.format('YYYY-MM-DD'), end.format('YYYY-MM-DD')];
}
