import {
  barsOption,
  dayChartOption,
  PREDICTED_STYLE,
  recordValues,
  type ChartOption,
} from '@/shared/charts';
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
  const series = besidePv(infos).map((s) => ({
    key: s.label,
    name: name(s.label),
    unit: s.unit,
    records: recordValues(s.records),
    dashed: s.unit === '%',
    area: s.label === 'pv',
  }));
  if (period === 'day') return dayChartOption({ series, day, zone });
  const option = barsOption({ series, dropZero: true });
  // predicted generation: PV's green, hollow and dashed, read as the target beside the bar
  const predicted = name('predicted');
  const bars = (option.series as { name: string }[]).map((s) =>
    s.name === predicted ? { ...s, itemStyle: PREDICTED_STYLE } : s,
  );
  return { ...option, series: bars };
}

/** The series with `predicted` moved right after `pv`, so its bar stands beside PV's. */
function besidePv(infos: Series[]): Series[] {
  const predicted = infos.find((s) => s.label === 'predicted');
  const at = infos.findIndex((s) => s.label === 'pv');
  if (!predicted || at < 0) return infos;
  const rest = infos.filter((s) => s !== predicted);
  return [...rest.slice(0, at + 1), predicted, ...rest.slice(at + 1)];
}

/** Actual PV against predicted generation (kWh) and the ratio in %. */
export interface PredictedRatio {
  actual: number;
  predicted: number;
  ratio: number;
}

/**
 * PV against the `predicted` series over the buckets that have PV: a month still running is
 * compared on its days so far, not on days still to come, and in a year the running month's
 * prediction counts by the `current` share of it that has passed. Null without predictions.
 */
export function predictedRatio(
  infos: Series[] | undefined,
  current?: { time: string; share: number },
): PredictedRatio | null {
  const predicted = (infos ?? []).find((s) => s.label === 'predicted');
  const pv = (infos ?? []).find((s) => s.label === 'pv');
  if (!predicted || !pv) return null;
  const actualBy = new Map(pv.records.map((r) => [r.time, Number(r.value)]));
  let actual = 0;
  let expected = 0;
  for (const r of predicted.records) {
    const a = actualBy.get(r.time);
    const p = Number(r.value);
    if (a === undefined || !Number.isFinite(a) || r.value === '' || !Number.isFinite(p)) continue;
    actual += a;
    expected += current && r.time === current.time ? p * current.share : p;
  }
  if (expected <= 0) return null;
  return { actual, predicted: expected, ratio: (actual / expected) * 100 };
}

/** Whether a chart answer has anything to draw. */
export function hasData(infos: Series[] | undefined): boolean {
  return (infos ?? []).some((s) => s.records.length > 0);
}
