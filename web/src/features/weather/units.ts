import { dayChartOption as dayChart, SERIES_COLORS, type ChartOption } from '@/shared/charts';
import { num, toUserTemp, type TempUnit } from '@/shared/devices/temp';
import type { Series } from '@/shared/devices/api';

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
 * A weather station's day chart: the view's series as lines on a time axis over the whole
 * plant-local day, one y axis per unit (at most two), temperatures in the user's unit. Pure,
 * for tests.
 */
export function dayChartOption(
  infos: Series[],
  view: DayView,
  temp: TempUnit,
  name: (label: string) => string,
  day: string,
  zone: string,
): ChartOption {
  const labels: readonly string[] = DAY_VIEWS[view];
  const series = infos
    .filter((s) => labels.includes(s.label))
    .map((s) => {
      const celsius = s.unit === '°C';
      return {
        key: s.label,
        name: name(s.label),
        unit: celsius ? `°${temp}` : s.unit,
        color: COLORS[s.label] ?? SERIES_COLORS.other,
        records: s.records.map((r) => {
          const n = num(r.value);
          return { time: r.time, value: n !== null && celsius ? toUserTemp(n, temp) : n };
        }),
      };
    });
  return dayChart({ series, day, zone });
}
