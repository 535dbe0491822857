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

/** Numeric values arrive as strings or null; temperatures in °C. */
export type NumText = string | null;

/** An item of GET /api/v1/weatherStations. */
export interface StationRow {
  id: number;
  sn: string;
  alias: string;
  status: number;
  model: string;
  plant: { id: number; name: string; type: number | null } | null;
  gsn: string | null;
  updateAt: string;
  irradiance: NumText;
  moduleTemp: NumText;
  ambientTemp: NumText;
}

/** GET /api/v1/weatherStation/{sn}/realtime. */
export interface StationRealtime extends StationRow {
  editable: boolean;
  humidity: NumText;
  windSpeed: NumText;
  windDirection: NumText;
  pressure: NumText;
  todayIrradiation: NumText;
  rainfall: NumText;
  time: string | null;
}

export interface Series {
  unit: string;
  label: string;
  records: { time: string; value: string; updateTime: string | null }[];
}

export interface StationQuery {
  page: number;
  limit: number;
  status: number;
  sn: string;
  plantId: number | null;
}

export const DEFAULT_QUERY: StationQuery = {
  page: 1,
  limit: 10,
  status: -1,
  sn: '',
  plantId: null,
};

export function listParams(q: StationQuery): Record<string, string | number> {
  return {
    page: Math.max(1, Math.trunc(q.page)),
    limit: Math.min(100, Math.max(1, Math.trunc(q.limit))),
    status: q.status,
    sn: q.sn.trim(),
    plantId: q.plantId ?? '',
  };
}

export const stationKeys = {
  all: ['weatherStations'] as const,
  list: (q: StationQuery) => ['weatherStations', 'list', listParams(q)] as const,
  counts: ['weatherStations', 'counts'] as const,
  one: (sn: string) => ['weatherStations', 'one', sn] as const,
};

const enc = encodeURIComponent;

export const stationListQuery = (q: StationQuery) =>
  queryOptions({
    queryKey: stationKeys.list(q),
    queryFn: () =>
      http.get<Page<StationRow>>('/api/v1/weatherStations', {
        params: listParams(q),
        silent: true,
      }),
    placeholderData: (prev) => prev,
  });

export const stationCountsQuery = queryOptions({
  queryKey: stationKeys.counts,
  queryFn: () => http.get<StatusCounts>('/api/v1/weatherStation/status/count', { silent: true }),
});

export const stationRealtimeQuery = (sn: string) =>
  queryOptions({
    queryKey: [...stationKeys.one(sn), 'realtime'],
    queryFn: () =>
      http.get<StationRealtime>(`/api/v1/weatherStation/${enc(sn)}/realtime`, {
        handledCodes: [600],
      }),
    retry: false,
    refetchInterval: 60_000,
  });

export const stationDayQuery = (sn: string, date: string) =>
  queryOptions({
    queryKey: [...stationKeys.one(sn), 'day', date],
    queryFn: () =>
      http.get<{ infos: Series[] }>(`/api/v1/weatherStation/${enc(sn)}/day`, {
        params: { date },
        silent: true,
      }),
  });

export interface PlantOption {
  id: number;
  name: string;
}

export const plantOptionsQuery = queryOptions({
  queryKey: ['weatherStations', 'plantOptions'],
  queryFn: async () =>
    (
      await http.get<Page<PlantOption>>('/api/v1/plants', {
        params: { page: 1, limit: 100, sort: 'name', order: 'asc' },
        silent: true,
      })
    ).infos,
  staleTime: 60_000,
});

export const renameStation = (sn: string, alias: string) =>
  http.post(`/api/v1/weatherStation/${enc(sn)}/alias`, { alias });
export const deleteStation = (sn: string) => http.post(`/api/v1/weatherStation/${enc(sn)}/delete`);
