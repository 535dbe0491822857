import { barsOption, dayChartOption, recordValues, type ChartOption } from '@/shared/charts';
import type { Period, Series } from './api';

export interface ChartInput {
  infos: Series[];
  period: Period;
  /** The translated name of a series label. */
  name: (label: string) => string;
  /** The day drawn (`YYYY-MM-DD`, plant-local) and the plant's zone: the day chart's axis. */
  day: string;
  zone: string;
}

/**
 * The ECharts option of the overview chart. A day: power lines on a time axis over the whole
 * plant-local day (W, kW or MW by the peak), SOC (%) dashed on a second axis. Month, year and
 * total: energy bars (kWh or MWh), one group per metric, metrics without any energy left out.
 * Pure, for tests; the component adds the theme's axis style.
 */
export function chartOption({ infos, period, name, day, zone }: ChartInput): ChartOption {
  const series = infos.map((s) => ({
    key: s.label,
    name: name(s.label),
    unit: s.unit,
    records: recordValues(s.records),
    dashed: s.unit === '%',
    area: s.label === 'pv',
  }));
  return period === 'day'
    ? dayChartOption({ series, day, zone })
    : barsOption({ series, dropZero: true });
}

/** Whether a chart answer has anything to draw. */
export function hasData(infos: Series[] | undefined): boolean {
  return (infos ?? []).some((s) => s.records.length > 0);
}
