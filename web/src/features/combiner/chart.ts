import {
  barsOption,
  dayChartOption,
  recordValues,
  SERIES_COLORS,
  type ChartOption,
} from '@/shared/charts';
import type { Series } from '@/shared/devices/api';
import type { Span, StringNow } from './api';

/** The warning colour a weak string's bar is drawn in, whatever its own colour. */
export const WEAK_COLOR = '#e05d5d';

/**
 * One colour per string, the same in the bars and the day curve: hues spread around the wheel
 * by the golden angle, so neighbouring strings never look alike however many there are.
 */
export function stringColor(no: number): string {
  const hue = Math.round((no * 137.508) % 360);
  return `hsl(${hue}, 62%, 52%)`;
}

/** `string12` → 12; anything else → null. */
export function stringNo(label: string): number | null {
  const m = /^string(\d+)$/.exec(label);
  return m ? Number(m[1]) : null;
}

/**
 * The bars of the strings' currents now: one bar per string in its colour, weak strings in
 * the warning colour with their name marked. Pure, for tests.
 */
export function stringBarsOption(
  strings: StringNow[],
  name: (no: number) => string,
  weakMark: string,
): ChartOption {
  return {
    grid: { left: 48, right: 16, top: 24, bottom: 48 },
    // One series whose bars each have their own colour: a legend would show one swatch.
    legend: { show: false },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: {
      type: 'category',
      data: strings.map((s) => (s.weak ? `${name(s.no)} ${weakMark}` : name(s.no))),
      axisLabel: { rotate: strings.length > 8 ? 45 : 0 },
    },
    yAxis: { type: 'value', name: 'A' },
    series: [
      {
        type: 'bar',
        name: 'A',
        barMaxWidth: 28,
        data: strings.map((s) => ({
          value: s.current,
          itemStyle: { color: s.weak ? WEAK_COLOR : stringColor(s.no) },
        })),
      },
    ],
  };
}

/**
 * The history chart: on the day span one line per string current (A) in the string's colour
 * on a time axis over the plant-local day, and the box's power (W) on the second axis; on the
 * month span the energy per day as bars. Pure, for tests.
 */
export function combinerChartOption(
  infos: Series[],
  span: Span,
  name: (label: string) => string,
  day: string,
  zone: string,
): ChartOption {
  const series = infos.map((s) => {
    const no = stringNo(s.label);
    return {
      key: s.label,
      name: name(s.label),
      unit: s.unit,
      color: no === null ? SERIES_COLORS.pv : stringColor(no),
      dashed: no === null,
      records: recordValues(s.records),
    };
  });
  return span === 'day' ? dayChartOption({ series, day, zone }) : barsOption({ series });
}
