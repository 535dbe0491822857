import { queryOptions } from '@tanstack/react-query';
import { http } from '@/shared/http';

export interface Page<T> {
  pageSize: number;
  pageNumber: number;
  total: number;
  infos: T[];
}

/** An item of GET /api/v1/inverters (API_CONVENTIONS.md). */
export interface InverterRow {
  id: number;
  sn: string;
  alias: string;
  gsn: string | null;
  status: number;
  type: number;
  typeKey?: string;
  commTypeName: string;
  custCode: number;
  version: {
    masterVer: string | null;
    softVer: string | null;
    hardVer: string | null;
    hmiVer: string | null;
    bmsVer: string | null;
  };
  model: string;
  pac: number;
  etoday: number;
  etotal: number;
  updateAt: string;
  createAt?: string;
  opened: number;
  plant: {
    id: number;
    name: string;
    type: number;
    master: number;
    installer: string;
    email: string;
    phone: string;
  } | null;
  plantId: number | null;
  gatewayVO: { gsn: string; status: number } | null;
  sunsynkEquip: boolean;
  protocolIdentifier: string;
  equipMode: number | null;
  equipType: number;
  ratePower: number | null;
  online: boolean;
  /** The newest values are past the offline bound: `pac` reads 0, the rest is last known. */
  stale?: boolean;
  /** The plant's zone (UTC without a plant): the inverter's times are shown in it. */
  timezone?: string;
}

/** GET /api/v1/inverter/{sn}: the list item plus readings and the caller's keys. */
export interface InverterDetail extends InverterRow {
  hybrid: boolean;
  protocol: string;
  runningState: number | null;
  mpptCount: number | null;
  phaseCount: number | null;
  dcTemp: number | null;
  igbtTemp: number | null;
  lastSeen: string | null;
  timezone: string;
  plantPermission: string[];
  values: Record<string, unknown>;
}

export interface StatusCounts {
  total: number;
  normal: number;
  offline: number;
  warning: number;
  fault: number;
  upgrading: number;
}

export interface Vip {
  volt: string | null;
  current: string | null;
  power: number | null;
}

export interface PvInput {
  id: number;
  pvNo: number;
  vpv: string | null;
  ipv: string | null;
  ppv: string | null;
  todayPv: string;
  sn: string;
  time: string;
}

export interface SeriesRecord {
  time: string;
  value: string;
  updateTime: string | null;
}

/** One `infos[]` series; `label` is a stable key, `name` English. */
export interface Series {
  unit: string;
  label: string;
  id: number | null;
  groupCode: string | null;
  name: string | null;
  records: SeriesRecord[];
}

export interface SeriesAnswer {
  date?: string;
  timezone?: string;
  infos: Series[];
}

/** The tabs of the detail screen with their own realtime and series endpoints. */
export type Port = 'input' | 'output' | 'grid' | 'load' | 'battery' | 'eps' | 'gen' | 'meter';
export type Span = 'day' | 'month' | 'year' | 'total';

/** Realtime answers are objects of numbers, numeric strings, arrays and nulls. */
export type Realtime = Record<string, unknown>;

export interface InverterQuery {
  page: number;
  limit: number;
  status: number;
  type: number;
  sn: string;
  plantId: number | null;
  gsn: string;
  softVer: string;
  hmiVer: string;
}

export const DEFAULT_QUERY: InverterQuery = {
  page: 1,
  limit: 10,
  status: -1,
  type: -2,
  sn: '',
  plantId: null,
  gsn: '',
  softVer: '',
  hmiVer: '',
};

/** The query string of GET /api/v1/inverters (the client's `-1`/`-2` "any" conventions). */
export function listParams(q: InverterQuery): Record<string, string | number> {
  return {
    page: Math.max(1, Math.trunc(q.page)),
    limit: Math.min(100, Math.max(1, Math.trunc(q.limit))),
    status: q.status,
    type: q.type,
    sn: q.sn.trim(),
    plantId: q.plantId ?? '',
    gsn: q.gsn.trim(),
    softVer: q.softVer.trim(),
    hmiVer: q.hmiVer.trim(),
  };
}

/**
 * The URL of a tab's realtime values: PV input and AC output under the inverter, the
 * generator under `gen/`, the other ports under `{port}/` (SPEC section 7).
 */
export function realtimeUrl(port: Port, sn: string): string {
  const s = encodeURIComponent(sn);
  switch (port) {
    case 'input':
      return `/api/v1/inverter/${s}/realtime/input`;
    case 'output':
      return `/api/v1/inverter/${s}/realtime/output`;
    case 'gen':
      return `/api/v1/inverter/gen/${s}/realtime`;
    default:
      return `/api/v1/inverter/${port}/${s}/realtime`;
  }
}

/**
 * The URL and query of a tab's series. Input and output have day curves of their own
 * (`input/day`, `output/day?column=`); their bars are the inverter's energy. The generator's
 * day curve is `genMi/{sn}/day`, its bars `gen/{sn}/byDate`.
 */
export function seriesRequest(
  port: Port,
  span: Span,
  sn: string,
  date: string,
): { url: string; params: Record<string, string> } {
  const s = encodeURIComponent(sn);
  // month: YYYY-MM, year: YYYY, total: none
  const param =
    span === 'day'
      ? date.slice(0, 10)
      : span === 'month'
        ? date.slice(0, 7)
        : span === 'year'
          ? date.slice(0, 4)
          : '';
  const params: Record<string, string> = param ? { date: param } : {};
  if (port === 'gen') {
    if (span === 'day') return { url: `/api/v1/inverter/genMi/${s}/day`, params };
    return { url: `/api/v1/inverter/gen/${s}/byDate`, params };
  }
  if (port === 'input' || port === 'output') {
    if (span !== 'day') return { url: `/api/v1/inverter/${s}/${span}`, params };
    if (port === 'input') return { url: `/api/v1/inverter/${s}/input/day`, params };
    return {
      url: `/api/v1/inverter/${s}/output/day`,
      params: { ...params, column: OUTPUT_COLUMNS },
    };
  }
  return { url: `/api/v1/inverter/${port}/${s}/${span}`, params };
}

/** The output tab's day curve columns (client names of `output/day?column=`). */
export const OUTPUT_COLUMNS = 'pac,fac,dc_temp,igbt_temp';

export const inverterKeys = {
  all: ['inverters'] as const,
  list: (q: InverterQuery) => ['inverters', 'list', listParams(q)] as const,
  counts: ['inverters', 'counts'] as const,
  detail: (sn: string) => ['inverters', 'detail', sn] as const,
  realtime: (port: Port, sn: string) => ['inverters', 'realtime', port, sn] as const,
  series: (port: Port, span: Span, sn: string, date: string) =>
    ['inverters', 'series', port, span, sn, date] as const,
};

export const inverterListQuery = (q: InverterQuery) =>
  queryOptions({
    queryKey: inverterKeys.list(q),
    queryFn: () =>
      http.get<Page<InverterRow>>('/api/v1/inverters', { params: listParams(q), silent: true }),
    placeholderData: (prev) => prev,
  });

export const inverterCountsQuery = queryOptions({
  queryKey: inverterKeys.counts,
  queryFn: () => http.get<StatusCounts>('/api/v1/inverters/count', { silent: true }),
});

/** The plants the filter offers (the caller's first 100, by name). */
export const plantOptionsQuery = queryOptions({
  queryKey: ['inverters', 'plantOptions'],
  queryFn: () =>
    http.get<Page<{ id: number; name: string }>>('/api/v1/plants', {
      params: { page: 1, limit: 100, sort: 'name', order: 'asc' },
      silent: true,
    }),
  staleTime: 60_000,
});

export const inverterDetailQuery = (sn: string) =>
  queryOptions({
    queryKey: inverterKeys.detail(sn),
    queryFn: () =>
      http.get<InverterDetail>(`/api/v1/inverter/${encodeURIComponent(sn)}`, {
        handledCodes: [600],
      }),
    retry: false,
  });

/** Realtime values refresh every 30 s (gateways report every few minutes). */
export const realtimeQuery = (port: Port, sn: string) =>
  queryOptions({
    queryKey: inverterKeys.realtime(port, sn),
    queryFn: () => http.get<Realtime>(realtimeUrl(port, sn), { silent: true }),
    refetchInterval: 30_000,
  });

export const seriesQuery = (port: Port, span: Span, sn: string, date: string) =>
  queryOptions({
    queryKey: inverterKeys.series(port, span, sn, date),
    queryFn: () => {
      const { url, params } = seriesRequest(port, span, sn, date);
      return http.get<SeriesAnswer>(url, { params, silent: true });
    },
  });

export function renameInverter(sn: string, alias: string): Promise<unknown> {
  return http.post(`/api/v1/inverter/${encodeURIComponent(sn)}/alias`, { alias });
}

export function deleteInverter(sn: string): Promise<unknown> {
  return http.post(`/api/v1/inverter/${encodeURIComponent(sn)}/delete`, {});
}
