import { SERIES_COLORS, type ChartOption, type SeriesKind } from '@/shared/charts';
import type { Series } from '@/features/devices/api';
import { toUserTemp, type TempUnit } from '@/features/devices/temp';

/** The palette colour of a battery series (SPEC section 9: one meaning per colour). */
function kind(label: string): SeriesKind {
  if (label === 'soc') return 'soc';
  if (label === 'power') return 'battery';
  if (label === 'temp') return 'generator';
  if (label === 'voltage') return 'grid';
  return 'load';
}

/** A unit as shown: temperatures follow the user's unit. */
export function shownUnit(unit: string, temp: TempUnit): string {
  return unit === '°C' ? `°${temp}` : unit;
}

/**
 * The day chart of a battery: the chosen series as lines over the plant-local times, one y
 * axis per unit (at most two). Temperatures are converted to the user's unit. Pure, for tests.
 */
export function dayChartOption(
  infos: Series[],
  labels: readonly string[],
  temp: TempUnit,
  name: (label: string) => string,
): ChartOption {
  const shown = infos.filter((s) => labels.includes(s.label) && s.records.length > 0);
  const times = [...new Set(shown.flatMap((s) => s.records.map((r) => r.time)))].sort();
  const units = [...new Set(shown.map((s) => shownUnit(s.unit, temp)))].slice(0, 2);
  const series = shown
    .filter((s) => units.includes(shownUnit(s.unit, temp)))
    .map((s) => {
      const byTime = new Map(
        s.records.map((r) => {
          const n = r.value === '' ? NaN : Number(r.value);
          const v = Number.isFinite(n) ? (s.unit === '°C' ? toUserTemp(n, temp) : n) : null;
          return [r.time, v] as const;
        }),
      );
      const unit = shownUnit(s.unit, temp);
      const color = SERIES_COLORS[kind(s.label)];
      return {
        name: `${name(s.label)} (${unit})`,
        type: 'line',
        showSymbol: false,
        smooth: true,
        yAxisIndex: units.indexOf(unit),
        itemStyle: { color },
        lineStyle: { color },
        data: times.map((t) => byTime.get(t) ?? null),
      };
    });
  return {
    legend: { type: 'scroll', top: 0 },
    xAxis: { type: 'category', data: times.map((t) => t.slice(11, 16)) },
    yAxis: units.map((u) => ({ type: 'value', name: u })),
    series,
  };
}
