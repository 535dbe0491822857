import dayjs, { type Dayjs } from 'dayjs';
import {
  barsOption,
  dayChartOption,
  PREDICTED_STYLE,
  type ChartOption,
  type ChartSeries,
} from '@/shared/charts';
import { formatNumber, MISSING } from '@/shared/format/number';
import type { PlantReport, ReportEnergyRow, ReportEvent, ReportSummary, ReportType } from './types';

export const REPORT_TYPES: readonly ReportType[] = ['day', 'month', 'year'];

/** How each period names its date on the wire and in the picker. */
export const DATE_FORMAT: Record<ReportType, string> = {
  day: 'YYYY-MM-DD',
  month: 'YYYY-MM',
  year: 'YYYY',
};

const DATE_PATTERN: Record<ReportType, RegExp> = {
  day: /^\d{4}-\d{2}-\d{2}$/,
  month: /^\d{4}-\d{2}$/,
  year: /^\d{4}$/,
};

/** The period a report URL asks for (`?type&date`); the current month when it names none. */
export function reportPeriod(
  search: URLSearchParams,
  today: Dayjs = dayjs(),
): { type: ReportType; date: string } {
  const raw = search.get('type');
  const type = REPORT_TYPES.find((t) => t === raw) ?? 'month';
  const date = search.get('date') ?? '';
  return DATE_PATTERN[type].test(date) && dayjs(date).isValid()
    ? { type, date }
    : { type, date: today.format(DATE_FORMAT[type]) };
}

/** The date of a period as the picker holds it. */
export function periodDay(type: ReportType, date: string): Dayjs {
  return dayjs(type === 'year' ? `${date}-01-01` : date);
}

/** The route of a plant's report. */
export function reportPath(id: number, type: ReportType, date: string): string {
  return `/workdata/info/${id}?${new URLSearchParams({ type, date }).toString()}`;
}

/** Energy to two decimals, as the server rounds it. */
export const kwh = (v: number | null | undefined): string =>
  v === null || v === undefined ? MISSING : `${formatNumber(v, 2)} kWh`;

export const percent = (v: number | null | undefined): string =>
  v === null || v === undefined ? MISSING : `${formatNumber(v, 1)} %`;

/** Energy metrics of the summary and the table, in the order they are shown. */
export const ENERGY_KEYS = [
  'produced',
  'consumed',
  'imported',
  'exported',
  'charged',
  'discharged',
] as const;
export type EnergyKey = (typeof ENERGY_KEYS)[number];

/** The palette label of each metric, so a report's colours match the plant's screens. */
const SERIES_KEY: Record<EnergyKey, string> = {
  produced: 'pv',
  consumed: 'load',
  imported: 'grid_import',
  exported: 'grid_export',
  charged: 'charge',
  discharged: 'discharge',
};

/** The summary's energy figures that have anything (a plant without a battery has no charge). */
export function shownEnergyKeys(s: ReportSummary): EnergyKey[] {
  return ENERGY_KEYS.filter((k) => k === 'produced' || k === 'consumed' || s[k] !== 0);
}

/** Whether the report has predicted generation to show (the summary's figure). */
export function hasPredicted(r: PlantReport): boolean {
  return r.summary.predicted !== null || predictedRows(r);
}

/**
 * Whether the energy table and chart have predicted buckets: a month's days and a year's
 * months do, a day's hours never (a prediction is for a day at the finest).
 */
export function predictedRows(r: Pick<PlantReport, 'energy'>): boolean {
  return r.energy.some((e) => e.predicted !== null);
}

/** The energy bars of a report, one group per metric, predicted beside produced. Pure. */
export function energyChartOption(
  r: PlantReport,
  name: (key: EnergyKey | 'predicted') => string,
): ChartOption {
  const series: ChartSeries[] = shownEnergyKeys(r.summary).map((k) => ({
    key: SERIES_KEY[k],
    name: name(k),
    unit: 'kWh',
    records: r.energy.map((e) => ({ time: e.label, value: e[k] })),
  }));
  if (predictedRows(r)) {
    series.splice(1, 0, {
      key: 'predicted',
      name: name('predicted'),
      unit: 'kWh',
      records: r.energy.map((e) => ({ time: e.label, value: e.predicted })),
    });
  }
  return styled(barsOption({ series }), name('predicted'));
}

/** The option with the predicted series drawn hollow and animation off (print draws at once). */
function styled(o: ChartOption, predicted: string): ChartOption {
  const series = (o.series as { name: string }[]).map((s) =>
    s.name === predicted ? { ...s, itemStyle: PREDICTED_STYLE } : s,
  );
  return { ...o, series, animation: false };
}

/** The day's power curve (W): PV, load, grid and battery on the plant's day. Pure. */
export function powerChartOption(
  r: PlantReport,
  name: (key: 'pv' | 'load' | 'grid' | 'battery') => string,
): ChartOption {
  const keys = ['pv', 'load', 'grid', 'battery'] as const;
  const series: ChartSeries[] = keys.map((k) => ({
    key: k,
    name: name(k),
    unit: 'W',
    area: k === 'pv',
    records: r.power.map((p) => ({ time: `${r.from} ${p.time}:00`, value: p[k] })),
  }));
  return { ...dayChartOption({ series, day: r.from, zone: r.plant.timezone }), animation: false };
}

/** Sums of the energy table's columns (its total row); null when no row has the metric. */
export function energyTotals(
  rows: readonly ReportEnergyRow[],
): Record<EnergyKey | 'predicted', number | null> {
  const sum = (k: EnergyKey | 'predicted') => {
    const values = rows.map((r) => r[k]).filter((v): v is number => v !== null);
    return values.length ? Math.round(values.reduce((a, b) => a + b, 0) * 100) / 100 : null;
  };
  return {
    produced: sum('produced'),
    consumed: sum('consumed'),
    imported: sum('imported'),
    exported: sum('exported'),
    charged: sum('charged'),
    discharged: sum('discharged'),
    predicted: sum('predicted'),
  };
}

/**
 * Event rows on one printed page. Each row is one line (the text is cut with an ellipsis), so
 * a page of them fits an A4 page with its heading.
 */
export const EVENTS_PER_PAGE = 28;

/** A printed page of the report: each starts on a new A4 sheet. */
export type ReportPage =
  | { kind: 'summary' }
  | { kind: 'energy' }
  | { kind: 'power' }
  | { kind: 'events'; events: ReportEvent[]; index: number; count: number };

/**
 * The report's pages, as printed: the summary with the energy chart, the energy table, the
 * power curve (a day's report only), then the events, EVENTS_PER_PAGE to a page (one page
 * saying there were none when there were none).
 */
export function reportPages(r: Pick<PlantReport, 'type' | 'events'>): ReportPage[] {
  const pages: ReportPage[] = [{ kind: 'summary' }, { kind: 'energy' }];
  if (r.type === 'day') pages.push({ kind: 'power' });
  const count = Math.max(1, Math.ceil(r.events.length / EVENTS_PER_PAGE));
  for (let index = 0; index < count; index += 1) {
    const events = r.events.slice(index * EVENTS_PER_PAGE, (index + 1) * EVENTS_PER_PAGE);
    pages.push({ kind: 'events', events, index, count });
  }
  return pages;
}

/** The file and document title of a printed report: `<plant>-<date>`. */
export function reportTitle(r: Pick<PlantReport, 'plant' | 'date'>): string {
  return `${r.plant.name}-${r.date}`.replace(/[\\/:*?"<>|]+/g, '_');
}
