import type { Dayjs } from 'dayjs';
import { formatNumber, MISSING } from '@/shared/format/number';
import type { Figure, Period, PlantFigures } from './api';

/** The figures of the Performance card, in its order. */
export const FIGURE_KEYS = [
  'specificYield',
  'referenceYield',
  'performanceRatio',
  'availability',
  'selfConsumption',
  'selfSufficiency',
  'co2Avoided',
] as const;

export type FigureKey = (typeof FIGURE_KEYS)[number];

/** The `date` of the figures of the chart's period: a day, a month or a year; none for total. */
export function figuresDate(period: Period, date: Dayjs): string | null {
  switch (period) {
    case 'day':
      return date.format('YYYY-MM-DD');
    case 'month':
      return date.format('YYYY-MM');
    case 'year':
      return date.format('YYYY');
    case 'total':
      return null;
  }
}

/** A figure's value in its unit; '--' when the server has none (never 0). */
export function formatFigure(key: FigureKey, figure: Figure | undefined): string {
  const v = figure?.value;
  if (v === null || v === undefined || !Number.isFinite(v)) return MISSING;
  switch (key) {
    case 'specificYield':
      return `${formatNumber(v, 2)} kWh/kWp`;
    case 'referenceYield':
      return `${formatNumber(v, 2)} h`;
    case 'co2Avoided':
      return v >= 1000 ? `${formatNumber(v / 1000, 2)} t` : `${formatNumber(v, 1)} kg`;
    default:
      return `${formatNumber(v, 1)} %`;
  }
}

/** What the reference of the yields and the ratio was: a station or a clear sky, if any. */
export function referenceBasis(f: PlantFigures): 'station' | 'clearSky' | 'clearSkyAssumed' | null {
  const b = f.referenceYield.basis;
  return b === 'station' || b === 'clearSky' || b === 'clearSkyAssumed' ? b : null;
}
