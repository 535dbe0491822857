import { SERIES_COLORS, type ChartOption } from '@/shared/charts';
import { num, toUserTemp, type TempUnit } from '@/features/devices/temp';
import type { Series } from '@/features/devices/api';

const COMPASS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
export type Compass = (typeof COMPASS)[number];

/** The compass point (8 winds) a direction in degrees points to; null when missing. */
export function compassPoint(degrees: string | null | undefined): Compass | null {
  const n = num(degrees);
  if (n === null) return null;
  const index = Math.round((((n % 360) + 360) % 360) / 45) % 8;
  return COMPASS[index] ?? null;
}

/** The series a day chart may show, grouped by what they measure. */
export const DAY_VIEWS = {
  irradiance: ['irradiance'],
  temperature: ['ambientTemp', 'moduleTemp'],
  humidityWind: ['humidity', 'windSpeed'],
} as const;
export type DayView = keyof typeof DAY_VIEWS;

const COLORS: Record<string, string> = {
  irradiance: SERIES_COLORS.pv,
  ambientTemp: SERIES_COLORS.battery,
  moduleTemp: SERIES_COLORS.generator,
  humidity: SERIES_COLORS.soc,
  windSpeed: SERIES_COLORS.load,
};

/**
 * A weather station's day chart: the view's series as lines over plant-local times, one y axis
 * per unit (at most two), temperatures in the user's unit. Pure, for tests.
 */
export function dayChartOption(
  infos: Series[],
  view: DayView,
  temp: TempUnit,
  name: (label: string) => string,
): ChartOption {
  const labels: readonly string[] = DAY_VIEWS[view];
  const unitOf = (s: Series) => (s.unit === '°C' ? `°${temp}` : s.unit);
  const shown = infos.filter((s) => labels.includes(s.label) && s.records.length > 0);
  const times = [...new Set(shown.flatMap((s) => s.records.map((r) => r.time)))].sort();
  const units = [...new Set(shown.map(unitOf))].slice(0, 2);
  return {
    legend: { type: 'scroll', top: 0 },
    xAxis: { type: 'category', data: times.map((t) => t.slice(11, 16)) },
    yAxis: units.map((u) => ({ type: 'value', name: u })),
    series: shown.map((s) => {
      const byTime = new Map(
        s.records.map((r) => {
          const n = num(r.value);
          return [r.time, n === null ? null : s.unit === '°C' ? toUserTemp(n, temp) : n] as const;
        }),
      );
      const color = COLORS[s.label] ?? SERIES_COLORS.other;
      return {
        name: `${name(s.label)} (${unitOf(s)})`,
        type: 'line',
        showSymbol: false,
        smooth: true,
        yAxisIndex: Math.max(0, units.indexOf(unitOf(s))),
        itemStyle: { color },
        lineStyle: { color },
        data: times.map((t) => byTime.get(t) ?? null),
      };
    }),
  };
}
