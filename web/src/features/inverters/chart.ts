import { barsOption, dayChartOption, recordValues, type ChartOption } from '@/shared/charts';
import type { Series, Span } from './api';

export type TempUnit = 'C' | 'F';

/** °C (what the server sends) in the user's unit. */
export function toUserTemp(celsius: number, unit: TempUnit): number {
  return unit === 'F' ? Math.round(((celsius * 9) / 5) * 10 + 320) / 10 : celsius;
}

/** A unit as shown: temperatures follow the user's unit. */
export function userUnit(unit: string, temp: TempUnit): string {
  return unit === '°C' && temp === 'F' ? '°F' : unit;
}

export interface ChartInput {
  infos: Series[];
  span: Span;
  temp: TempUnit;
  /** The translated name of a series label. */
  name: (label: string) => string;
  /** The day drawn (`YYYY-MM-DD`, plant-local) and the plant's zone: the day chart's axis. */
  day: string;
  zone: string;
}

/**
 * The ECharts option of a tab's chart: day curves as lines on a time axis over the whole
 * plant-local day (one y axis per quantity, at most two; power in W, kW or MW by its peak),
 * month/year/total as energy bars. Temperatures are in the user's unit. Pure, for tests; the
 * component adds the axis style of the theme.
 */
export function chartOption({ infos, span, temp, name, day, zone }: ChartInput): ChartOption {
  const series = infos.map((s) => ({
    key: s.label,
    name: name(s.label),
    unit: userUnit(s.unit, temp),
    records: recordValues(s.records, s.unit === '°C' ? (n) => toUserTemp(n, temp) : undefined),
  }));
  return span === 'day' ? dayChartOption({ series, day, zone }) : barsOption({ series });
}
