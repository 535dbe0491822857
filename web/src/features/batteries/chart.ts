import {
  dayChartOption as timeChart,
  recordValues,
  SERIES_COLORS,
  type ChartOption,
} from '@/shared/charts';
import type { Series } from '@/shared/devices/api';
import { toUserTemp, type TempUnit } from '@/shared/devices/temp';

/** The palette colour of a battery series (one meaning per colour, docs/overview.md). */
const COLORS: Record<string, string> = {
  soc: SERIES_COLORS.soc,
  power: SERIES_COLORS.battery,
  temp: SERIES_COLORS.generator,
  voltage: SERIES_COLORS.grid,
  current: SERIES_COLORS.load,
};

/** A unit as shown: temperatures follow the user's unit. */
export function shownUnit(unit: string, temp: TempUnit): string {
  return unit === '°C' ? `°${temp}` : unit;
}

/**
 * The day chart of a battery: the chosen series as lines on a time axis over the whole
 * plant-local day, one y axis per quantity (at most two; power in W, kW or MW by its peak).
 * Temperatures are converted to the user's unit. Pure, for tests.
 */
export function dayChartOption(
  infos: Series[],
  labels: readonly string[],
  temp: TempUnit,
  name: (label: string) => string,
  day: string,
  zone: string,
): ChartOption {
  const series = infos
    .filter((s) => labels.includes(s.label))
    .map((s) => ({
      key: s.label,
      name: name(s.label),
      unit: shownUnit(s.unit, temp),
      color: COLORS[s.label] ?? SERIES_COLORS.other,
      records: recordValues(s.records, s.unit === '°C' ? (n) => toUserTemp(n, temp) : undefined),
    }));
  return timeChart({ series, day, zone });
}
