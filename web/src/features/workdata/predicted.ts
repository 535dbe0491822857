import { MISSING } from '@/shared/format/number';
import type { PredictedRow } from './types';

/** The period a row names: `2026-05` for a whole month (day blank or 0), `2026-05-14` for a day. */
export function rowPeriod(r: Pick<PredictedRow, 'year' | 'month' | 'day'>): string {
  if (r.year === null) return MISSING;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (r.month === null) return String(r.year);
  return r.day === null || r.day === 0
    ? `${r.year}-${pad(r.month)}`
    : `${r.year}-${pad(r.month)}-${pad(r.day)}`;
}
