import { queryOptions } from '@tanstack/react-query';
import { http } from '@/shared/http';
import type { DeviceKind } from './kind';

export interface Page<T> {
  pageSize: number;
  pageNumber: number;
  total: number;
  infos: T[];
}

/** Status counts of a device list (statuses of docs/overview.md). */
export interface StatusCounts {
  total: number;
  normal: number;
  offline: number;
  warning: number;
  fault: number;
  upgrading: number;
}

/** Numeric values arrive as strings ("52.4") or null (docs/api-conventions.md). */
export type NumText = string | null;

export interface SeriesRecord {
  time: string;
  value: string;
  updateTime: string | null;
}

export interface Series {
  unit: string;
  label: string;
  records: SeriesRecord[];
}

/** What every device list row has (the columns, filters and links the screens share). */
export interface DeviceRowBase {
  id: number;
  sn: string;
  alias: string;
  status: number;
  plant: { id: number; name: string; type: number | null } | null;
  gsn: string | null;
  updateAt: string;
  /** Its newest data is past its offline bound (or it never reported). */
  stale?: boolean;
  /** The plant's zone (UTC without a plant): its times are shown in it. */
  timezone?: string;
}

export interface DeviceQuery {
  page: number;
  limit: number;
  status: number;
  sn: string;
  plantId: number | null;
}

export const DEFAULT_QUERY: DeviceQuery = {
  page: 1,
  limit: 10,
  status: -1,
  sn: '',
  plantId: null,
};

export function listParams(q: DeviceQuery): Record<string, string | number> {
  return {
    page: Math.max(1, Math.trunc(q.page)),
    limit: Math.min(100, Math.max(1, Math.trunc(q.limit))),
    status: q.status,
    sn: q.sn.trim(),
    plantId: q.plantId ?? '',
  };
}

export interface PlantOption {
  id: number;
  name: string;
}

const enc = encodeURIComponent;

/** The query keys of one kind of device. */
export function deviceKeys(kind: Pick<DeviceKind, 'queryRoot'>) {
  const root = kind.queryRoot;
  return {
    all: [root] as const,
    list: (q: DeviceQuery) => [root, 'list', listParams(q)] as const,
    counts: [root, 'counts'] as const,
    one: (sn: string) => [root, 'one', sn] as const,
  };
}

/** The list, counts and plant-filter queries of one kind of device. */
export function deviceListQueries<Row>(kind: DeviceKind) {
  const keys = deviceKeys(kind);
  return {
    list: (q: DeviceQuery) =>
      queryOptions({
        queryKey: keys.list(q),
        queryFn: () => http.get<Page<Row>>(kind.listUrl, { params: listParams(q), silent: true }),
        placeholderData: (prev: Page<Row> | undefined) => prev,
      }),
    counts: queryOptions({
      queryKey: keys.counts,
      queryFn: () => http.get<StatusCounts>(kind.countsUrl, { silent: true }),
    }),
    /** Plants for the plant filter (the first 100 the user sees, by name). */
    plants: queryOptions({
      queryKey: [kind.queryRoot, 'plantOptions'],
      queryFn: async () =>
        (
          await http.get<Page<PlantOption>>('/api/v1/plants', {
            params: { page: 1, limit: 100, sort: 'name', order: 'asc' },
            silent: true,
          })
        ).infos,
      staleTime: 60_000,
    }),
  };
}

/** A device's live values: code 600 (no such device) is the page's to show; once a minute. */
export const deviceRealtimeQuery = <T>(kind: DeviceKind, sn: string) =>
  queryOptions({
    queryKey: [...deviceKeys(kind).one(sn), 'realtime'],
    queryFn: () => http.get<T>(`${kind.deviceUrl}/${enc(sn)}/realtime`, { handledCodes: [600] }),
    retry: false,
    refetchInterval: 60_000,
  });

/** A device's history of a span (`day`, `month`, …) at a date (none for the total). */
export const deviceSeriesQuery = (kind: DeviceKind, sn: string, span: string, date: string) =>
  queryOptions({
    queryKey: [...deviceKeys(kind).one(sn), span, date],
    queryFn: () =>
      http.get<{ infos: Series[] }>(`${kind.deviceUrl}/${enc(sn)}/${span}`, {
        params: date ? { date } : {},
        silent: true,
      }),
  });

export const renameDevice = (kind: DeviceKind, sn: string, alias: string) =>
  http.post(`${kind.deviceUrl}/${enc(sn)}/alias`, { alias });

export const deleteDevice = (kind: DeviceKind, sn: string): Promise<unknown> =>
  http.post(`${kind.deviceUrl}/${enc(sn)}/delete`);
