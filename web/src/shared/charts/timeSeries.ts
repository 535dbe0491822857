import { formatNumber } from '@/shared/format/number';
import { scaleFor, toBase } from '@/shared/format/units';
import type { ChartOption } from './EChart';
import { SERIES_COLORS, seriesColors, seriesKind } from './palette';

/** One series of a chart, as the screens hand it over (values in `unit`). */
export interface ChartSeries {
  /** The server's stable label: picks the palette colour unless `color` is given. */
  key: string;
  /** What the legend and the tooltip call it (translated). */
  name: string;
  /** The unit the values come in: W, kWh, %, V, A, Hz, °C... */
  unit: string;
  /** Day curves: plant-local `YYYY-MM-DD HH:MM:SS`; bars: the bucket (`YYYY-MM-DD`...). */
  records: { time: string; value: number | null }[];
  color?: string;
  dashed?: boolean;
  /** A light area under the line (PV on the overview). */
  area?: boolean;
}

/** A y axis: the series of one quantity, in the unit it is shown in. */
interface Axis {
  /** The quantity: W, Wh, %, V... (kW and W are one quantity). */
  dimension: string;
  /** The unit shown: kW for power peaking at 45,000 W. */
  unit: string;
  /** Divides a value in the series' own unit into the shown unit. */
  scale: (value: number, unit: string) => number;
}

const DAY_MS = 24 * 3600 * 1000;

/** Series with at most this many points also draw each point. */
const SPARSE = 48;

/**
 * The position of a plant-local wall time on a day chart's time axis: the wall time read as
 * if it were UTC. The chart runs with `useUTC`, so ticks fall on the plant's whole hours and
 * labels read the plant's clock whatever the browser's zone. (On the day clocks go back the
 * repeated hour overlaps itself: the server sends wall times, which cannot tell it apart.)
 */
export function wallClockMs(time: string): number {
  const m = /^(\d{4})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d)(?::(\d\d))?)?/.exec(time);
  if (!m) return Number.NaN;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1);
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
}

function dimensionOf(unit: string): string {
  return toBase(unit)?.base ?? unit;
}

/** The axes of `series`: one per quantity in order of appearance, at most `max`. */
function axesOf(series: ChartSeries[], max: number): Axis[] {
  const dims = [...new Set(series.map((s) => dimensionOf(s.unit)))].slice(0, max);
  return dims.map((dimension) => {
    const members = series.filter((s) => dimensionOf(s.unit) === dimension);
    if (dimension === 'W' || dimension === 'Wh') {
      const toBaseValue = (v: number, unit: string) => v * (toBase(unit)?.factor ?? 1);
      const peak = Math.max(
        0,
        ...members.flatMap((s) =>
          s.records.map((r) => (r.value === null ? 0 : Math.abs(toBaseValue(r.value, s.unit)))),
        ),
      );
      const { unit, divisor } = scaleFor(peak, dimension);
      return { dimension, unit, scale: (v, u) => toBaseValue(v, u) / divisor };
    }
    return { dimension, unit: dimension, scale: (v) => v };
  });
}

/** The series that have an axis (a quantity past `maxAxes` has none and is left out). */
function onAxes(series: ChartSeries[], axes: Axis[]): ChartSeries[] {
  return series.filter((s) => axes.some((a) => a.dimension === dimensionOf(s.unit)));
}

/** One colour per series, distinct within the chart ([seriesColors]). */
function colorsOf(series: ChartSeries[]): string[] {
  return seriesColors(series.map((s) => s.color ?? SERIES_COLORS[seriesKind(s.key)]));
}

/** A legend naming every series in its colour, when there is more than one to tell apart. */
function legendOf(count: number) {
  return { type: 'scroll', top: 0, show: count > 1 };
}

const round = (v: number) => Math.round(v * 1000) / 1000;

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `4.2 kW`: a tooltip value with its axis unit. */
function valueText(v: unknown, unit: string): string {
  const n = typeof v === 'number' ? v : Array.isArray(v) ? Number(v[1]) : Number.NaN;
  if (!Number.isFinite(n)) return '--';
  return `${formatNumber(Math.round(n * 100) / 100)}${unit ? ` ${unit}` : ''}`;
}

interface TooltipParam {
  seriesName?: string;
  marker?: string;
  value?: unknown;
  axisValue?: number | string;
  axisValueLabel?: string;
}

/** A tooltip that names every value with its unit, under `title(first param)`. */
function tooltipFormatter(units: Map<string, string>, title: (p: TooltipParam) => string) {
  return (raw: TooltipParam | TooltipParam[]) => {
    const params = Array.isArray(raw) ? raw : [raw];
    if (params.length === 0) return '';
    const lines = params.map(
      (p) =>
        `${p.marker ?? ''}${escape(p.seriesName ?? '')}: <b>${valueText(p.value, units.get(p.seriesName ?? '') ?? '')}</b>`,
    );
    return [escape(title(params[0] as TooltipParam)), ...lines].join('<br/>');
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `HH:MM` of a wall-clock position ([wallClockMs]). */
export function clockOf(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

export interface DayChartInput {
  series: ChartSeries[];
  /** The plant-local day drawn (`YYYY-MM-DD`): the axis runs over all of it. */
  day: string;
  /** The plant's zone, named in the tooltip (times are its wall times). */
  zone: string;
  /** Quantities with an axis of their own; series of further quantities are left out. */
  maxAxes?: number;
}

/**
 * A day chart: lines on a time axis over the whole plant-local day, each point where its time
 * falls (4 minutes of data take 4/1440 of the width), one y axis per quantity (power in W, kW
 * or MW by its peak, energy likewise, % from 0 to 100), tooltips with the plant's time and
 * zone and every value's unit. Empty series are left out. Pure, for tests; the component adds
 * the theme's axis style.
 */
export function dayChartOption({ series, day, zone, maxAxes = 2 }: DayChartInput): ChartOption {
  const withValues = series.filter((s) => s.records.some((r) => r.value !== null));
  const axes = axesOf(withValues, maxAxes);
  const shown = onAxes(withValues, axes);
  const colors = colorsOf(shown);
  const units = new Map<string, string>();
  const start = wallClockMs(day);
  const lines = shown.flatMap((s, i) => {
    const index = axes.findIndex((a) => a.dimension === dimensionOf(s.unit));
    const axis = axes[index];
    if (!axis) return [];
    units.set(s.name, axis.unit);
    const color = colors[i];
    const data = s.records
      .map((r) => [
        wallClockMs(r.time),
        r.value === null ? null : round(axis.scale(r.value, s.unit)),
      ])
      .filter(([t]) => Number.isFinite(t))
      .sort((a, b) => (a[0] as number) - (b[0] as number));
    return [
      {
        type: 'line',
        name: s.name,
        data,
        // A few points (a plant that just started, or a short burst of data) are drawn as
        // dots too, or a single point would not show at all.
        showSymbol: data.length <= SPARSE,
        symbolSize: 5,
        smooth: false,
        connectNulls: false,
        yAxisIndex: index,
        lineStyle: { width: 2, color, type: s.dashed ? 'dashed' : 'solid' },
        itemStyle: { color },
        areaStyle: s.area ? { opacity: 0.15, color } : undefined,
      },
    ];
  });
  return {
    useUTC: true,
    legend: legendOf(lines.length),
    tooltip: {
      trigger: 'axis',
      formatter: tooltipFormatter(units, (p) =>
        typeof p.axisValue === 'number' ? `${clockOf(p.axisValue)} (${zone})` : `(${zone})`,
      ),
    },
    xAxis: {
      type: 'time',
      min: start,
      max: start + DAY_MS,
      axisLabel: { formatter: (v: number) => clockOf(v), hideOverlap: true },
    },
    yAxis: axes.map((a, i) => ({
      type: 'value',
      name: a.unit,
      ...(a.dimension === '%' ? { min: 0, max: 100 } : {}),
      ...(i > 0 ? { splitLine: { show: false } } : {}),
    })),
    dataZoom: [{ type: 'inside', filterMode: 'none' }],
    series: lines,
  };
}

export interface BarsInput {
  series: ChartSeries[];
  /** Leave out series whose every value is 0 (metrics the plant does not have). */
  dropZero?: boolean;
}

/**
 * Energy (or any) bars per bucket: one group per series over the union of the buckets, values
 * scaled like the day chart (kWh, MWh...), tooltips with units. Pure, for tests.
 */
export function barsOption({ series, dropZero = false }: BarsInput): ChartOption {
  const withValues = series.filter((s) =>
    s.records.some((r) => r.value !== null && (!dropZero || r.value !== 0)),
  );
  const axes = axesOf(withValues, 2);
  const shown = onAxes(withValues, axes);
  const colors = colorsOf(shown);
  const times = [...new Set(shown.flatMap((s) => s.records.map((r) => r.time)))].sort();
  const units = new Map<string, string>();
  const bars = shown.flatMap((s, i) => {
    const index = axes.findIndex((a) => a.dimension === dimensionOf(s.unit));
    const axis = axes[index];
    if (!axis) return [];
    units.set(s.name, axis.unit);
    const byTime = new Map(s.records.map((r) => [r.time, r.value]));
    const color = colors[i];
    return [
      {
        type: 'bar',
        name: s.name,
        yAxisIndex: index,
        itemStyle: { color },
        barMaxWidth: 18,
        data: times.map((t) => {
          const v = byTime.get(t);
          return v === null || v === undefined ? null : round(axis.scale(v, s.unit));
        }),
      },
    ];
  });
  return {
    legend: legendOf(bars.length),
    tooltip: {
      trigger: 'axis',
      formatter: tooltipFormatter(units, (p) => String(p.axisValueLabel ?? p.axisValue ?? '')),
    },
    xAxis: { type: 'category', data: times },
    yAxis: axes.map((a, i) => ({
      type: 'value',
      name: a.unit,
      ...(i > 0 ? { splitLine: { show: false } } : {}),
    })),
    series: bars,
  };
}

/** Numbers of a series' string values (`''` and non-numbers read as missing). */
export function recordValues(
  records: { time: string; value: string }[],
  convert: (n: number) => number = (n) => n,
): { time: string; value: number | null }[] {
  return records.map((r) => {
    const n = r.value === '' ? Number.NaN : Number(r.value);
    return { time: r.time, value: Number.isFinite(n) ? convert(n) : null };
  });
}

/** A chart option with the theme's axis style on its x axis and every y axis. Pure. */
export function withAxisStyle(o: ChartOption, axis: AxisStyle): ChartOption {
  const y = Array.isArray(o.yAxis) ? (o.yAxis as object[]) : [o.yAxis as object];
  return {
    ...o,
    xAxis: styled(o.xAxis as AxisStyle, axis),
    yAxis: y.map((a, i) => {
      const s = styled(a as AxisStyle, axis);
      return i > 0 ? { ...s, splitLine: { show: false } } : s;
    }),
  };
}

/** What [withAxisStyle] adds; nested objects are merged, so an axis keeps its own formatter. */
export interface AxisStyle {
  axisLine?: object;
  axisLabel?: object;
  splitLine?: object;
  [key: string]: unknown;
}

function styled(a: AxisStyle, style: AxisStyle): AxisStyle {
  return {
    ...a,
    ...style,
    axisLine: { ...a.axisLine, ...style.axisLine },
    axisLabel: { ...a.axisLabel, ...style.axisLabel },
    splitLine: { ...a.splitLine, ...style.splitLine },
  };
}
