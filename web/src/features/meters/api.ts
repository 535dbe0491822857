import { queryOptions } from '@tanstack/react-query';
import { http } from '@/shared/http';

export interface Page<T> {
  pageSize: number;
  pageNumber: number;
  total: number;
  infos: T[];
}

export interface StatusCounts {
  total: number;
  normal: number;
  offline: number;
  warning: number;
  fault: number;
  upgrading: number;
}

/** An item of GET /api/v1/meters. */
export interface MeterRow {
  id: number;
  sn: string;
  alias: string;
  devName: string;
  status: number;
  online: boolean;
  model: string;
  plant: { id: number; name: string; type: number | null } | null;
  gsn: string | null;
  updateAt: string;
  master: boolean;
  power: number | null;
  voltage: string | null;
  frequency: number | null;
  totalImport: string | null;
  totalExport: string | null;
}

/** GET /api/v1/meter/{sn}/realtime. */
export interface MeterRealtime {
  sn: string;
  alias: string;
  plant: { id: number; name: string; type: number | null } | null;
  gsn: string | null;
  status: number;
  master: boolean;
  editable: boolean;
  vip: { volt: string | null; current: string | null; power: number | null }[];
  power: number | null;
  pf: number | null;
  fac: number | null;
  totalImport: string | null;
  totalExport: string | null;
  etodayImport: string;
  etodayExport: string;
  time: string | null;
  updateAt: string;
}

export interface Series {
  unit: string;
  label: string;
  records: { time: string; value: string; updateTime: string | null }[];
}

export type Span = 'day' | 'month' | 'year' | 'total';

export interface MeterQuery {
  page: number;
  limit: number;
  status: number;
  sn: string;
  plantId: number | null;
}

export const DEFAULT_QUERY: MeterQuery = { page: 1, limit: 10, status: -1, sn: '', plantId: null };

export function listParams(q: MeterQuery): Record<string, string | number> {
  return {
    page: Math.max(1, Math.trunc(q.page)),
    limit: Math.min(100, Math.max(1, Math.trunc(q.limit))),
    status: q.status,
    sn: q.sn.trim(),
    plantId: q.plantId ?? '',
  };
}

/** The `date` parameter of a span: YYYY-MM-DD, YYYY-MM, YYYY, or none for the total. */
export function spanDate(span: Span, date: { format(f: string): string }): string {
  if (span === 'day') return date.format('YYYY-MM-DD');
  if (span === 'month') return date.format('YYYY-MM');
  if (span === 'year') return date.format('YYYY');
  return '';
}

export const meterKeys = {
  all: ['meters'] as const,
  list: (q: MeterQuery) => ['meters', 'list', listParams(q)] as const,
  counts: ['meters', 'counts'] as const,
  one: (sn: string) => ['meters', 'one', sn] as const,
};

const enc = encodeURIComponent;

export const meterListQuery = (q: MeterQuery) =>
  queryOptions({
    queryKey: meterKeys.list(q),
    queryFn: () =>
      http.get<Page<MeterRow>>('/api/v1/meters', { params: listParams(q), silent: true }),
    placeholderData: (prev) => prev,
  });

export const meterCountsQuery = queryOptions({
  queryKey: meterKeys.counts,
  queryFn: () => http.get<StatusCounts>('/api/v1/meter/status/count', { silent: true }),
});

export const meterRealtimeQuery = (sn: string) =>
  queryOptions({
    queryKey: [...meterKeys.one(sn), 'realtime'],
    queryFn: () =>
      http.get<MeterRealtime>(`/api/v1/meter/${enc(sn)}/realtime`, { handledCodes: [600] }),
    retry: false,
    refetchInterval: 60_000,
  });

export const meterSeriesQuery = (sn: string, span: Span, date: string) =>
  queryOptions({
    queryKey: [...meterKeys.one(sn), span, date],
    queryFn: () =>
      http.get<{ infos: Series[] }>(`/api/v1/meter/${enc(sn)}/${span}`, {
        params: date ? { date } : {},
        silent: true,
      }),
  });

export interface PlantOption {
  id: number;
  name: string;
}

export const plantOptionsQuery = queryOptions({
  queryKey: ['meters', 'plantOptions'],
  queryFn: async () =>
    (
      await http.get<Page<PlantOption>>('/api/v1/plants', {
        params: { page: 1, limit: 100, sort: 'name', order: 'asc' },
        silent: true,
      })
    ).infos,
  staleTime: 60_000,
});

export const renameMeter = (sn: string, alias: string) =>
  http.post(`/api/v1/meter/${enc(sn)}/alias`, { alias });
export const deleteMeter = (sn: string) => http.post(`/api/v1/meter/${enc(sn)}/delete`);
export const setMasterMeter = (sn: string, master: boolean) =>
  http.post(`/api/v1/meter/${enc(sn)}/master`, { master });
