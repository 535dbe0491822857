import { SERIES_COLORS, type ChartOption } from '@/shared/charts';
import type { Series } from '@/features/devices/api';
import type { Span } from './api';

/** Meter series are grid quantities: import in the grid colour, export and phases around it. */
const COLORS: Record<string, string> = {
  power: SERIES_COLORS.grid,
  powerL1: SERIES_COLORS.load,
  powerL2: SERIES_COLORS.battery,
  powerL3: SERIES_COLORS.soc,
  import: SERIES_COLORS.grid,
  export: SERIES_COLORS.pv,
};

/** X axis label: the plant-local hour and minute of a day curve, else the bucket itself. */
export function axisLabel(time: string, span: Span): string {
  return span === 'day' ? time.slice(11, 16) : time;
}

/**
 * A meter chart: the day curve as lines (W), month/year/total energy as bars (kWh); times are
 * plant-local as the server sends them. Pure, for tests.
 */
export function meterChartOption(
  infos: Series[],
  span: Span,
  name: (label: string) => string,
): ChartOption {
  const shown = infos.filter((s) => s.records.length > 0);
  const times = [...new Set(shown.flatMap((s) => s.records.map((r) => r.time)))].sort();
  const unit = shown[0]?.unit ?? (span === 'day' ? 'W' : 'kWh');
  return {
    legend: { type: 'scroll', top: 0 },
    xAxis: { type: 'category', data: times.map((t) => axisLabel(t, span)) },
    yAxis: [{ type: 'value', name: unit }],
    series: shown.map((s) => {
      const byTime = new Map(
        s.records.map((r) => {
          const n = r.value === '' ? NaN : Number(r.value);
          return [r.time, Number.isFinite(n) ? n : null] as const;
        }),
      );
      const color = COLORS[s.label] ?? SERIES_COLORS.other;
      return {
        name: `${name(s.label)} (${s.unit})`,
        type: span === 'day' ? 'line' : 'bar',
        showSymbol: false,
        smooth: span === 'day',
        itemStyle: { color },
        lineStyle: { color },
        data: times.map((t) => byTime.get(t) ?? null),
      };
    }),
  };
}
