/**
 * The report and predicted-generation answers, written from the server's contract until the
 * API document carries them (then `Schemas[...]` replaces each one).
 */

/** The period a report covers. */
export type ReportType = 'day' | 'month' | 'year';

export interface ReportPlant {
  id: number;
  name: string;
  /** kWp */
  capacity: number | null;
  address: string | null;
  timezone: string;
  currency: string | null;
  type: number | string | null;
  ownerName: string | null;
  companyName: string | null;
  companyLogoUrl: string | null;
}

export interface ReportEventCounts {
  fault: number;
  warning: number;
  info: number;
}

/** The figures of the whole period: energy in kWh (2 decimals), shares in % (0-100). */
export interface ReportSummary {
  produced: number;
  consumed: number;
  imported: number;
  exported: number;
  charged: number;
  discharged: number;
  generator: number;
  selfConsumption: number | null;
  selfSufficiency: number | null;
  income: number | null;
  /** W */
  peakPower: number | null;
  /** Plant-local `YYYY-MM-DD HH:MM:SS`. */
  peakPowerAt: string | null;
  predicted: number | null;
  predictedRatio: number | null;
  events: ReportEventCounts;
}

/** One bucket of the energy table: an hour `00`..`23`, a day `01`.. or a month `01`..`12`. */
export interface ReportEnergyRow {
  label: string;
  produced: number | null;
  consumed: number | null;
  imported: number | null;
  exported: number | null;
  charged: number | null;
  discharged: number | null;
  predicted: number | null;
}

/** A 5-minute point of the day's power curve (W). */
export interface ReportPowerPoint {
  time: string;
  pv: number | null;
  load: number | null;
  grid: number | null;
  battery: number | null;
}

export interface ReportEvent {
  id: number;
  sn: string | null;
  code: string;
  content: string | null;
  severity: string;
  openedAt: string;
  closedAt: string | null;
}

/** GET /api/v1/report/plant/{id}. */
export interface PlantReport {
  plant: ReportPlant;
  type: ReportType;
  date: string;
  /** Plant-local dates of the period. */
  from: string;
  to: string;
  generatedAt: string;
  summary: ReportSummary;
  energy: ReportEnergyRow[];
  power: ReportPowerPoint[];
  events: ReportEvent[];
}

/** GET /api/v1/report/plant/{id}/subscription. */
export interface Subscription {
  enabled: boolean;
  email: string | null;
  lastSent: string | null;
}

/** One row of an imported predicted-generation sheet and what became of it. */
export interface PredictedRow {
  row: number;
  plantId: number | null;
  year: number | null;
  month: number | null;
  day: number | null;
  success: boolean;
  msg: string | null;
}

/** POST /api/v1/predicted/import. */
export interface PredictedImport {
  total: number;
  imported: number;
  failed: number;
  rows: PredictedRow[];
}
