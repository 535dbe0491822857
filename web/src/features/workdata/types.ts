import type { Schemas } from '@/shared/api/schema';

/** The period a report covers. */
export type ReportType = Schemas['ReportType'];

/** The plant a report is about, as its header shows it. */
export type ReportPlant = Schemas['ReportPlant'];

/** The figures of the whole period: energy in kWh (2 decimals), shares in % (0-100). */
export type ReportSummary = Schemas['ReportSummary'];

/** One bucket of the energy table: an hour `00`..`23`, a day `01`.. or a month `01`..`12`. */
export type ReportEnergyRow = Schemas['EnergyRow'];

/** A 5-minute point of the day's power curve (W). */
export type ReportPowerPoint = Schemas['PowerPoint'];

/** An event that began in the period. */
export type ReportEvent = Schemas['ReportEvent'];

/** GET /api/v1/report/plant/{id}: a day's, month's or year's report (`type` as asked). */
export type PlantReport = Schemas['PlantReport'];

/** GET /api/v1/report/plant/{id}/subscription: the caller's monthly report e-mail. */
export type Subscription = Schemas['SubscriptionState'];

/** One row of an imported predicted-generation sheet and what became of it (`day` 0: the month). */
export type PredictedRow = Schemas['PredictedImportRow'];

/** POST /api/v1/predicted/import. */
export type PredictedImport = Schemas['PredictedImport'];
