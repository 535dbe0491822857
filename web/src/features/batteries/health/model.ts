import { SERIES_COLORS, seriesColors, type ChartOption } from '@/shared/charts';
import { formatNumber, MISSING } from '@/shared/format/number';
import type { Schemas } from '@/shared/api/schema';

/** GET /api/v1/battery/{sn}/health (docs/battery-health.md). */
export type BatteryHealth = Schemas['BatteryHealth'];
export type HealthDay = Schemas['HealthDay'];
export type MeasuredCapacity = Schemas['MeasuredCapacity'];
export type HealthCell = Schemas['HealthCell'];

/** The spans the health block offers, in days back from today. */
export const SPANS = { d30: 30, d90: 90, y1: 365, y3: 1095 } as const;
export type Span = keyof typeof SPANS;

/** Colours: SOH as the battery's own, measured capacity as the discharge's, cycles as SOC's. */
const [SOH_COLOR, MEASURED_COLOR] = seriesColors([SERIES_COLORS.battery, SERIES_COLORS.discharge]);

/** A figure with its unit, or "--" when it is missing (never 0). */
export function figure(value: number | null | undefined, decimals: number, unit = ''): string {
  const text = formatNumber(value, decimals);
  return text === MISSING || !unit ? text : `${text} ${unit}`;
}

/** The text key and values that name a cell: "Cell 3" or "Pack 2 cell 5"; null when unknown. */
export function cellLabel(
  cell: HealthCell | null | undefined,
): { key: string; values: Record<string, number> } | null {
  if (!cell) return null;
  return cell.pack === null || cell.pack === undefined
    ? { key: 'batteries.cells.cell', values: { no: cell.cell } }
    : { key: 'batteries.cells.packCell', values: { pack: cell.pack, no: cell.cell } };
}

/** A measured capacity as a share of the rated capacity (%), to sit on the SOH axis. */
export function measuredShare(
  c: MeasuredCapacity,
  rated: number | null | undefined,
): number | null {
  return rated && rated > 0 ? Math.round((c.measuredAh / rated) * 1000) / 10 : null;
}

/** The newest measured capacity of the span, if any. */
export function newestMeasured(h: BatteryHealth): MeasuredCapacity | null {
  return h.cycles.at(-1) ?? null;
}

export interface SohNames {
  soh: string;
  measured: string;
}

/**
 * SOH over the days as a line, the capacities measured over full swings as points on it (as a
 * share of the rated capacity, so both read on one % axis; a line series of points alone, as
 * the shared chart registers no scatter). The axis spans the values in steps of 5 %, up to
 * 100 % at least. Pure, for tests.
 */
export function sohOption(h: BatteryHealth, names: SohNames): ChartOption {
  const days = h.days.map((d) => d.day);
  const rated = new Map(h.days.map((d) => [d.day, d.capacityAh ?? h.capacityAh]));
  const measured = new Map<string, number>();
  for (const c of h.cycles) {
    const share = measuredShare(c, rated.get(c.day) ?? h.capacityAh);
    if (share !== null) measured.set(c.day, share);
  }
  const values = [
    ...h.days.flatMap((d) => (d.soh === null || d.soh === undefined ? [] : [d.soh])),
    ...measured.values(),
  ];
  const low = values.length ? Math.min(...values) : 80;
  const high = values.length ? Math.max(100, ...values) : 100;
  return {
    legend: { data: [names.soh, names.measured] },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', data: days },
    yAxis: {
      type: 'value',
      name: '%',
      min: Math.max(0, Math.floor((low - 1) / 5) * 5),
      max: Math.ceil((high + 1) / 5) * 5,
    },
    dataZoom: [{ type: 'inside' }],
    series: [
      {
        type: 'line',
        name: names.soh,
        color: SOH_COLOR,
        showSymbol: false,
        connectNulls: false,
        data: h.days.map((d) => d.soh ?? null),
      },
      {
        type: 'line',
        name: names.measured,
        color: MEASURED_COLOR,
        lineStyle: { width: 0 },
        symbol: 'circle',
        symbolSize: 10,
        showAllSymbol: true,
        connectNulls: false,
        data: days.map((d) => measured.get(d) ?? null),
      },
    ],
  };
}

export interface CycleNames {
  efc: string;
  bms: string;
}

/** Cycles over the days: the equivalent full cycles counted here and the BMS's count. Pure. */
export function cyclesOption(h: BatteryHealth, names: CycleNames): ChartOption {
  const [efc, bms] = seriesColors([SERIES_COLORS.soc, SERIES_COLORS.grid]);
  return {
    legend: { data: [names.efc, names.bms] },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', data: h.days.map((d) => d.day) },
    yAxis: { type: 'value' },
    dataZoom: [{ type: 'inside' }],
    series: [
      {
        type: 'line',
        name: names.efc,
        color: efc,
        showSymbol: false,
        data: h.days.map((d) => d.efcTotal ?? null),
      },
      {
        type: 'line',
        name: names.bms,
        color: bms,
        showSymbol: false,
        data: h.days.map((d) => d.bmsCycles ?? null),
      },
    ],
  };
}

/** The day's widest cell spread as bars, mV. Pure. */
export function spreadOption(h: BatteryHealth, name: string): ChartOption {
  return {
    legend: { data: [name] },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', data: h.days.map((d) => d.day) },
    yAxis: { type: 'value', name: 'mV', min: 0 },
    dataZoom: [{ type: 'inside' }],
    series: [
      {
        type: 'bar',
        name,
        color: SERIES_COLORS.generator,
        barMaxWidth: 12,
        data: h.days.map((d) => d.spreadMv ?? null),
      },
    ],
  };
}

/** The cell named most often as the day's highest (or lowest) over the span. */
export function usualCell(days: HealthDay[], side: 'highCell' | 'lowCell'): HealthCell | null {
  const counts = new Map<string, { cell: HealthCell; n: number }>();
  for (const d of days) {
    const c = d[side];
    if (!c) continue;
    const key = `${c.pack ?? ''}.${c.cell}`;
    const entry = counts.get(key) ?? { cell: c, n: 0 };
    entry.n += 1;
    counts.set(key, entry);
  }
  let best: { cell: HealthCell; n: number } | null = null;
  for (const e of counts.values()) if (!best || e.n > best.n) best = e;
  return best?.cell ?? null;
}

/** Whether the span has anything to draw. */
export function hasDays(h: BatteryHealth): boolean {
  return h.days.length > 0;
}
