import { queryOptions } from '@tanstack/react-query';
import { inverterKeys } from '@/shared/api/keys';
import type { Series } from '@/shared/api/series';
import type { Command } from '@/shared/commands/api';
import type { StatusCounts } from '@/shared/devices/api';
import { ErrorCode, http, type Page } from '@/shared/http';
import { int, optionalId, text, type ListQuery } from '@/shared/list/params';

export type { Series } from '@/shared/api/series';

/** An item of GET /api/v1/inverters (docs/api-conventions.md). */
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

/** The list's filters, kept in the URL (`-1` any status, `-2` any type: the server's "any"). */
export const INVERTER_FILTERS = {
  status: int(-1),
  type: int(-2),
  sn: text(),
  plantId: optionalId(),
  gsn: text(),
  softVer: text(),
  hmiVer: text(),
};

export type InverterQuery = ListQuery<typeof INVERTER_FILTERS>;

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
 * generator under `gen/`, the other ports under `{port}/` (docs/api.md).
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

export const inverterListQuery = (q: InverterQuery) =>
  queryOptions({
    queryKey: inverterKeys.list(listParams(q)),
    queryFn: () =>
      http.get<Page<InverterRow>>('/api/v1/inverters', { params: listParams(q), silent: true }),
    placeholderData: (prev) => prev,
  });

export const inverterCountsQuery = queryOptions({
  queryKey: inverterKeys.counts,
  queryFn: () => http.get<StatusCounts>('/api/v1/inverters/count', { silent: true }),
});

export const inverterDetailQuery = (sn: string) =>
  queryOptions({
    queryKey: inverterKeys.detail(sn),
    queryFn: () =>
      http.get<InverterDetail>(`/api/v1/inverter/${encodeURIComponent(sn)}`, {
        handledCodes: [ErrorCode.InverterMissing],
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

/** Refusals of a power command (the settings screen's): the buttons show them. */
const POWER_REFUSALS: readonly ErrorCode[] = [
  ErrorCode.NoPermission,
  ErrorCode.InvalidParameter,
  ErrorCode.InverterMissing,
  ErrorCode.BrandNotSupported,
  ErrorCode.DeviceOffline,
  ErrorCode.DeviceUpgrading,
  ErrorCode.StateForbids,
  ErrorCode.NoSettings,
  ErrorCode.ConnectionFailed,
];

/** Power commands (GET, as the original API has them; docs/api.md). */
export function power(sn: string, on: boolean): Promise<Command> {
  return http.get<Command>(
    `/api/v1/inverter/${encodeURIComponent(sn.trim())}/${on ? 'boot' : 'shutdown'}`,
    { handledCodes: POWER_REFUSALS },
  );
}
