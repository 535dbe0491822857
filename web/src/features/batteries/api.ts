import { queryOptions } from '@tanstack/react-query';
import { http } from '@/shared/http';

export interface Page<T> {
  pageSize: number;
  pageNumber: number;
  total: number;
  infos: T[];
}

/** Status counts of GET /api/v1/batteries/count. */
export interface StatusCounts {
  total: number;
  normal: number;
  offline: number;
  warning: number;
  fault: number;
  upgrading: number;
}

/** Numeric values arrive as strings ("52.4") or null (API_CONVENTIONS.md). */
export type NumText = string | null;

/** An item of GET /api/v1/batteries (and the body of /battery/{sn}/info). */
export interface BatteryRow {
  id: number;
  sn: string;
  alias: string;
  devName: string;
  status: number;
  online: boolean;
  model: string;
  parentSn: string | null;
  versions: Record<string, string>;
  plant: { id: number; name: string; type: number | null } | null;
  gsn: string | null;
  updateAt: string;
  createAt: string;
  soc: NumText;
  soh: NumText;
  voltage: NumText;
  current: NumText;
  power: number | null;
  temp: NumText;
  capacity: NumText;
  cycles: number | null;
  packCount: number;
}

export interface BatteryInfo extends BatteryRow {
  capacityRemaining: NumText;
  master: boolean;
  masterSn: string | null;
  /** The server lets this caller delete it (role key and plant access). */
  deletable: boolean;
}

export interface Extreme {
  voltage: string;
  pack: number | null;
  cell: number | null;
}

export interface Cell {
  pack: number | null;
  no: number;
  voltage: string;
}

export interface Pack {
  no: number;
  sn: string;
  status: number;
  source: 'pack' | 'device';
  soc: NumText;
  soh: NumText;
  voltage: NumText;
  current: NumText;
  temp: NumText;
  cellVoltMax: NumText;
  cellVoltMin: NumText;
  cycles: number | null;
}

/** GET /api/v1/battery/{sn}/realtime. */
export interface BatteryRealtime {
  sn: string;
  status: number;
  soc: NumText;
  soh: NumText;
  voltage: string;
  current: string;
  power: number;
  tempMax: NumText;
  tempMin: NumText;
  capacity: NumText;
  capacityRemaining: NumText;
  chargeCurrentLimit: NumText;
  dischargeCurrentLimit: NumText;
  cycles: number | null;
  packCount: number;
  alarmWord: number | null;
  faultWord: number | null;
  charging: boolean | null;
  discharging: boolean | null;
  chargeRelay: boolean | null;
  dischargeRelay: boolean | null;
  balancing: boolean | null;
  etodayChg: string;
  etodayDischg: string;
  emonthChg: string;
  emonthDischg: string;
  eyearChg: string;
  eyearDischg: string;
  etotalChg: string;
  etotalDischg: string;
  cellMax: Extreme | null;
  cellMin: Extreme | null;
  cells: Cell[];
  packs: Pack[];
  time: string | null;
  updateAt: string;
}

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

export interface BatteryQuery {
  page: number;
  limit: number;
  status: number;
  sn: string;
  plantId: number | null;
}

export const DEFAULT_QUERY: BatteryQuery = {
  page: 1,
  limit: 10,
  status: -1,
  sn: '',
  plantId: null,
};

export function listParams(q: BatteryQuery): Record<string, string | number> {
  return {
    page: Math.max(1, Math.trunc(q.page)),
    limit: Math.min(100, Math.max(1, Math.trunc(q.limit))),
    status: q.status,
    sn: q.sn.trim(),
    plantId: q.plantId ?? '',
  };
}

export const batteryKeys = {
  all: ['batteries'] as const,
  list: (q: BatteryQuery) => ['batteries', 'list', listParams(q)] as const,
  counts: ['batteries', 'counts'] as const,
  one: (sn: string) => ['batteries', 'one', sn] as const,
};

const enc = encodeURIComponent;

export const batteryListQuery = (q: BatteryQuery) =>
  queryOptions({
    queryKey: batteryKeys.list(q),
    queryFn: () =>
      http.get<Page<BatteryRow>>('/api/v1/batteries', { params: listParams(q), silent: true }),
    placeholderData: (prev) => prev,
  });

export const batteryCountsQuery = queryOptions({
  queryKey: batteryKeys.counts,
  queryFn: () => http.get<StatusCounts>('/api/v1/batteries/count', { silent: true }),
});

export const batteryInfoQuery = (sn: string) =>
  queryOptions({
    queryKey: [...batteryKeys.one(sn), 'info'],
    queryFn: () =>
      http.get<BatteryInfo>(`/api/v1/battery/${enc(sn)}/info`, { handledCodes: [600] }),
    retry: false,
  });

export const batteryRealtimeQuery = (sn: string) =>
  queryOptions({
    queryKey: [...batteryKeys.one(sn), 'realtime'],
    queryFn: () =>
      http.get<BatteryRealtime>(`/api/v1/battery/${enc(sn)}/realtime`, { silent: true }),
    refetchInterval: 60_000,
  });

export const batteryDayQuery = (sn: string, date: string) =>
  queryOptions({
    queryKey: [...batteryKeys.one(sn), 'day', date],
    queryFn: () =>
      http.get<{ infos: Series[] }>(`/api/v1/battery/${enc(sn)}/day`, {
        params: { date },
        silent: true,
      }),
  });

export const batterySlavesQuery = (sn: string) =>
  queryOptions({
    queryKey: [...batteryKeys.one(sn), 'slaves'],
    queryFn: () =>
      http.get<{ total: number; infos: Pack[] }>(`/api/v1/batteries/${enc(sn)}/slave`, {
        silent: true,
      }),
  });

export interface PlantOption {
  id: number;
  name: string;
}

/** Plants for the plant filter (the first 100 the user sees, by name). */
export const plantOptionsQuery = queryOptions({
  queryKey: ['batteries', 'plantOptions'],
  queryFn: async () =>
    (
      await http.get<Page<PlantOption>>('/api/v1/plants', {
        params: { page: 1, limit: 100, sort: 'name', order: 'asc' },
        silent: true,
      })
    ).infos,
  staleTime: 60_000,
});

export function deleteBattery(sn: string): Promise<unknown> {
  return http.post(`/api/v1/battery/${enc(sn)}/delete`);
}
