import { SERIES_COLORS, type ChartOption, type SeriesKind } from '@/shared/charts';
import type { Period, Series } from './api';

/** The palette colour of a series label (the server's labels are the metric keys). */
export function seriesKind(label: string): SeriesKind {
  if (label === 'pv') return 'pv';
  if (label === 'load') return 'load';
  if (label.startsWith('grid')) return 'grid';
  if (label === 'soc') return 'soc';
  if (label === 'battery' || label === 'charge' || label === 'discharge') return 'battery';
  if (label === 'generator') return 'generator';
  return 'other';
}

/** The 5-minute times of a day curve are shown as HH:MM (already plant-local). */
export function axisLabel(time: string, period: Period): string {
  return period === 'day' ? time.slice(11, 16) : time;
}

export interface ChartInput {
  infos: Series[];
  period: Period;
  /** The translated name of a series label. */
  name: (label: string) => string;
  /** Axis names: power (W), percent, energy (kWh). */
  axisNames: { power: string; percent: string; energy: string };
}

function toValue(raw: string): number | null {
  if (raw === '') return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}

/**
 * The ECharts option of the overview chart. A day: power lines (W) over the plant-local times,
 * SOC (%) on a second axis. Month, year and total: energy bars (kWh), one group per metric,
 * metrics without any energy left out. Empty series are dropped; the x axis is the union of
 * the series' times. Pure, for tests; the component adds the theme's axis style.
 */
export function chartOption({ infos, period, name, axisNames }: ChartInput): ChartOption {
  const shown = infos.filter((s) =>
    s.records.some((r) => period === 'day' || (toValue(r.value) ?? 0) !== 0),
  );
  const times = [...new Set(shown.flatMap((s) => s.records.map((r) => r.time)))].sort();
  const day = period === 'day';
  const series = shown.map((s) => {
    const byTime = new Map(s.records.map((r) => [r.time, toValue(r.value)]));
    const color = SERIES_COLORS[seriesKind(s.label)];
    const data = times.map((t) => byTime.get(t) ?? null);
    return day
      ? {
          type: 'line',
          name: name(s.label),
          data,
          showSymbol: false,
          smooth: true,
          connectNulls: false,
          yAxisIndex: s.unit === '%' ? 1 : 0,
          lineStyle: { width: 2, color, type: s.unit === '%' ? 'dashed' : 'solid' },
          itemStyle: { color },
          areaStyle: s.label === 'pv' ? { opacity: 0.15, color } : undefined,
        }
      : { type: 'bar', name: name(s.label), data, itemStyle: { color }, barMaxWidth: 18 };
  });
  const yAxis = day
    ? [
        { type: 'value', name: axisNames.power },
        { type: 'value', name: axisNames.percent, min: 0, max: 100, splitLine: { show: false } },
      ]
    : [{ type: 'value', name: axisNames.energy }];
  return {
    legend: { top: 0, data: series.map((s) => s.name) },
    xAxis: { type: 'category', data: times.map((t) => axisLabel(t, period)), boundaryGap: !day },
    yAxis,
    series,
  };
}

/** Whether a chart answer has anything to draw. */
export function hasData(infos: Series[] | undefined): boolean {
  return (infos ?? []).some((s) => s.records.length > 0);
}
