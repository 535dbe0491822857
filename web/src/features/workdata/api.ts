import { api, type PathOf } from '@/shared/api/client';
import { queryOptions } from '@tanstack/react-query';
import type { Schemas } from '@/shared/api/schema';
import { ErrorCode } from '@/shared/http';
import { currentLanguage } from '@/shared/i18n';
import { day, oneOf, optionalId, text, type ListQuery } from '@/shared/list/params';
import type { PlantReport, ReportType } from './types';

export type * from './types';

/** The query keys of the reports screens; the language is part of what the server translates. */
export const workdataKeys = {
  all: ['workdata'] as const,
  report: (id: number, type: ReportType, date: string, lan: string) =>
    ['workdata', 'report', id, type, date, lan] as const,
  subscription: (id: number) => ['workdata', 'subscription', id] as const,
  plants: (name: string) => ['workdata', 'plants', name] as const,
  devices: (plantId: number) => ['workdata', 'devices', plantId] as const,
  columns: (sn: string, sdate: string, edate: string) =>
    ['workdata', 'columns', sn, sdate, edate] as const,
  dynamic: (params: Readonly<Record<string, string | number>>) =>
    ['workdata', 'dynamic', params] as const,
  events: (kind: EventKind, lan: string, params: Readonly<Record<string, string | number>>) =>
    ['workdata', 'events', kind, lan, params] as const,
};

/** The plant overview's energy bars, refreshed after an import of predicted generation. */
export const OVERVIEW_ENERGY_KEY = ['overview', 'energy'] as const;

// ---- plant reports ----------------------------------------------------------------------

/** GET /api/v1/report/plant/{id}: one plant's report of a day, month or year. */
export const reportQuery = (id: number, type: ReportType, date: string) =>
  queryOptions({
    queryKey: workdataKeys.report(id, type, date, currentLanguage()),
    queryFn: () =>
      // the document has `type` as text; the server answers the ReportType it was asked for
      api.get('/api/v1/report/plant/{id}', {
        path: { id },
        query: { type, date },
        handledCodes: [ErrorCode.InvalidParameter],
      }) as Promise<PlantReport>,
    retry: false,
  });

/** The report as an .xlsx (Summary, Energy and Events sheets). */
export const downloadReport = (id: number, type: ReportType, date: string) =>
  api.download(
    '/api/v1/report/plant/{id}/download',
    { path: { id }, query: { type, date } },
    `report-${id}-${date}.xlsx`,
  );

/** The caller's monthly report e-mail of a plant. */
export const subscriptionQuery = (id: number) =>
  queryOptions({
    queryKey: workdataKeys.subscription(id),
    queryFn: () =>
      api.get('/api/v1/report/plant/{id}/subscription', { path: { id }, silent: true }),
  });

export const saveSubscription = (id: number, enabled: boolean) =>
  api.post('/api/v1/report/plant/{id}/subscription', {
    path: { id },
    body: { enabled },
    handledCodes: [ErrorCode.InvalidParameter],
  });

// ---- pickers ----------------------------------------------------------------------------

/** What a plant picker reads of an item of GET /api/v1/plants. */
export type PlantOption = Pick<Schemas['PlantItem'], 'id' | 'name'>;

/** Plants for a picker: the first 100 matching the typed name. */
export const plantOptionsQuery = (name: string) =>
  queryOptions({
    queryKey: workdataKeys.plants(name),
    queryFn: () =>
      api.get('/api/v1/plants', { query: { page: 1, limit: 100, name }, silent: true }),
    staleTime: 60_000,
  });

/** A device of a plant (GET /api/v1/plant/{id}/devices). */
export type PlantDevice = Pick<Schemas['PlantDevice'], 'id' | 'sn' | 'family' | 'alias'>;

export const plantDevicesQuery = (plantId: number) =>
  queryOptions({
    queryKey: workdataKeys.devices(plantId),
    queryFn: () => api.get('/api/v1/plant/{id}/devices', { path: { id: plantId }, silent: true }),
    staleTime: 60_000,
  });

// ---- dynamic data -------------------------------------------------------------------------

/** The dynamic data tab's filters, kept in the URL. */
export const DYNAMIC_FILTERS = {
  plantId: optionalId(),
  sn: text(),
  sdate: day(),
  edate: day(),
  column: text(),
};
export type DynamicFilter = ListQuery<typeof DYNAMIC_FILTERS>;
export type DynamicPage = Schemas['DynamicPage'];
/** A sample as the table shows it: `time` and each column's value, with a row key. */
export type DynamicRow = Record<string, string | null> & { id: string };
export type DynamicRows = Omit<DynamicPage, 'infos'> & { infos: DynamicRow[] };

/** The request of a dynamic data page; `today` fills a missing range. */
export function dynamicParams(f: DynamicFilter, today: string): Record<string, string | number> {
  const params: Record<string, string | number> = {
    sn: f.sn,
    sdate: f.sdate || today,
    edate: f.edate || today,
    page: f.page,
    limit: f.limit,
  };
  if (f.column) params.column = f.column;
  return params;
}

export const dynamicQuery = (params: Record<string, string | number>) =>
  queryOptions({
    queryKey: workdataKeys.dynamic(params),
    queryFn: async (): Promise<DynamicRows> => {
      const page = await api.get('/api/v1/workdata/dynamic', {
        query: params,
        handledCodes: [ErrorCode.InvalidParameter],
      });
      const infos = page.infos.map((r, i) => ({ ...r, id: `${page.pageNumber}-${i}` }));
      return { ...page, infos };
    },
    enabled: String(params.sn ?? '') !== '',
    placeholderData: (previous) => previous,
    retry: false,
  });

/** Every value key the device reported in the range (a one-row page without `column`). */
export const dynamicColumnsQuery = (sn: string, sdate: string, edate: string) =>
  queryOptions({
    queryKey: workdataKeys.columns(sn, sdate, edate),
    queryFn: async () =>
      (
        await api.get('/api/v1/workdata/dynamic', {
          query: { sn, sdate, edate, page: 1, limit: 1 },
          silent: true,
        })
      ).columns,
    enabled: sn !== '',
    staleTime: 60_000,
  });

export const downloadDynamic = (params: Record<string, string | number>) => {
  const rest = { ...params };
  delete rest.page;
  delete rest.limit;
  return api.download(
    '/api/v1/workdata/dynamic/download',
    { query: rest },
    `dynamic-${params.sn}.xlsx`,
  );
};

// ---- inverter and battery events ----------------------------------------------------------

export type EventKind = 'inverter' | 'battery';
export type EventItem = Schemas['EventItem'];

export const EVENT_FILTERS = {
  plantId: optionalId(),
  sn: text(),
  severity: oneOf(['', 'info', 'warning', 'fault'] as const, ''),
  sdate: day(),
  edate: day(),
};
export type EventFilter = ListQuery<typeof EVENT_FILTERS>;

const EVENT_PATH = {
  inverter: '/api/v1/workdata/event',
  battery: '/api/v1/workdata/battery/event',
} as const satisfies Record<EventKind, PathOf<'get'>>;

const EVENT_DOWNLOAD = {
  inverter: '/api/v1/workdata/event/download',
  battery: '/api/v1/workdata/battery/event/download',
} as const satisfies Record<EventKind, PathOf<'get'>>;

/** The filters as query parameters; "any" is left out, a range needs both days. */
export function eventParams(f: EventFilter): Record<string, string | number> {
  const params: Record<string, string | number> = { page: f.page, limit: f.limit };
  if (f.plantId !== null) params.plantId = f.plantId;
  if (f.sn.trim()) params.sn = f.sn.trim();
  if (f.severity) params.severity = f.severity;
  if (f.sdate && f.edate) {
    params.sdate = f.sdate;
    params.edate = f.edate;
  }
  return params;
}

export const eventsQuery = (kind: EventKind) => (f: EventFilter) =>
  queryOptions({
    queryKey: workdataKeys.events(kind, currentLanguage(), eventParams(f)),
    queryFn: () => api.get(EVENT_PATH[kind], { query: eventParams(f) }),
    placeholderData: (previous) => previous,
  });

export function downloadEvents(kind: EventKind, f: EventFilter): Promise<void> {
  const params = eventParams(f);
  delete params.page;
  delete params.limit;
  return api.download(EVENT_DOWNLOAD[kind], { query: params }, `${kind}-events.xlsx`);
}

// ---- predicted generation -----------------------------------------------------------------

/** The sheet limit (2 MB) and the names the picker takes. */
export const PREDICTED_MAX_BYTES = 2 * 1024 * 1024;
export const PREDICTED_ACCEPT = '.xlsx';

/** Whether a file may be sent; the locale key of why not. */
export function predictedFileProblem(file: { name: string; size: number }): string | null {
  if (!/\.xlsx$/i.test(file.name)) return 'workdata.predicted.wrongType';
  if (file.size === 0) return 'workdata.predicted.emptyFile';
  if (file.size > PREDICTED_MAX_BYTES) return 'workdata.predicted.tooLarge';
  return null;
}

/** POST /api/v1/predicted/import; `dryRun` checks every row and writes nothing. */
export function importPredicted(file: File, dryRun: boolean) {
  const form = new FormData();
  if (dryRun) form.append('dryRun', 'true');
  form.append('file', file);
  return api.post('/api/v1/predicted/import', {
    body: form,
    query: dryRun ? { dryRun: true } : undefined,
    handledCodes: [
      ErrorCode.InvalidParameter,
      ErrorCode.UnsupportedFile,
      ErrorCode.FileTooLarge,
      ErrorCode.NoPermission,
    ],
  });
}

export const downloadPredictedTemplate = () =>
  api.download('/api/v1/predicted/template', {}, 'predicted-generation-template.xlsx');
