import { api, fillPath } from '@/shared/api/client';
import { queryOptions } from '@tanstack/react-query';
import { inverterKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import type { Command } from '@/shared/commands/api';
import { ErrorCode } from '@/shared/http';
import { agentParam } from '@/shared/api/pickers';
import { int, optionalId, text, type ListQuery } from '@/shared/list/params';
import { LIVE_QUERY } from '@/shared/api/live';

export type { Series } from '@/shared/api/series';

/** An item of GET /api/v1/inverters (docs/api-conventions.md). */
export type InverterRow = Schemas['InverterItem'];

/** GET /api/v1/inverter/{sn}: the list item plus readings and the caller's keys. */
export type InverterDetail = Schemas['InverterDetail'];

export type Vip = Schemas['Vip'];
export type PvInput = Schemas['PvInput'];
export type SeriesAnswer = Schemas['SeriesAnswer'];
export type InverterCounts = Schemas['InverterStatusCounts'];

/** The tabs of the detail screen with their own realtime and series endpoints. */
export type Port = 'input' | 'output' | 'grid' | 'load' | 'battery' | 'eps' | 'gen' | 'meter';
export type Span = 'day' | 'month' | 'year' | 'total';

/** The realtime answer of each tab. */
export interface RealtimeAnswers {
  input: Schemas['InputRealtime'];
  output: Schemas['OutputRealtime'];
  grid: Schemas['GridRealtime'];
  load: Schemas['LoadRealtime'];
  battery: Schemas['BatteryRealtime'];
  eps: Schemas['EpsRealtime'];
  gen: Schemas['GenRealtime'];
  meter: Schemas['GridRealtime'];
}

/** A realtime answer as the value table reads it: by key (numbers, numeric strings, nulls). */
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
  /** An agent company's inverters only; -1 any. */
  agentCompanyId: int(-1),
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
    ...agentParam(q.agentCompanyId),
  };
}

/**
 * The path of a tab's realtime values: PV input and AC output under the inverter, the
 * generator under `gen/`, the other ports under `{port}/` (docs/api.md).
 */
function realtimePath(port: Port) {
  switch (port) {
    case 'input':
      return '/api/v1/inverter/{sn}/realtime/input' as const;
    case 'output':
      return '/api/v1/inverter/{sn}/realtime/output' as const;
    case 'gen':
      return '/api/v1/inverter/gen/{sn}/realtime' as const;
    default:
      return `/api/v1/inverter/${port}/{sn}/realtime` as const;
  }
}

/** The URL of a tab's realtime values for inverter `sn`. */
export function realtimeUrl(port: Port, sn: string): string {
  return fillPath(realtimePath(port), { sn });
}

/** The date parameter of a span: YYYY-MM-DD, YYYY-MM, YYYY; none for the total. */
function spanDate(span: Span, date: string): { date?: string } {
  const param =
    span === 'day'
      ? date.slice(0, 10)
      : span === 'month'
        ? date.slice(0, 7)
        : span === 'year'
          ? date.slice(0, 4)
          : '';
  return param ? { date: param } : {};
}

/**
 * The path and query of a tab's series. Input and output have day curves of their own
 * (`input/day`, `output/day?column=`); their bars are the inverter's energy. The generator's
 * day curve is `genMi/{sn}/day`, its bars `gen/{sn}/byDate`.
 */
function seriesPath(port: Port, span: Span) {
  if (port === 'gen') {
    return span === 'day'
      ? ('/api/v1/inverter/genMi/{sn}/day' as const)
      : ('/api/v1/inverter/gen/{sn}/byDate' as const);
  }
  if (port === 'input' || port === 'output') {
    if (span !== 'day') return `/api/v1/inverter/{sn}/${span}` as const;
    return port === 'input'
      ? ('/api/v1/inverter/{sn}/input/day' as const)
      : ('/api/v1/inverter/{sn}/output/day' as const);
  }
  return `/api/v1/inverter/${port}/{sn}/${span}` as const;
}

function seriesQueryParams(port: Port, span: Span, date: string) {
  const params = spanDate(span, date);
  return port === 'output' && span === 'day' ? { ...params, column: OUTPUT_COLUMNS } : params;
}

/** The URL and query of a tab's series for inverter `sn`. */
export function seriesRequest(
  port: Port,
  span: Span,
  sn: string,
  date: string,
): { url: string; params: { date?: string; column?: string } } {
  return {
    url: fillPath(seriesPath(port, span), { sn }),
    params: seriesQueryParams(port, span, date),
  };
}

/** The output tab's day curve columns (client names of `output/day?column=`). */
export const OUTPUT_COLUMNS = 'pac,fac,dc_temp,igbt_temp';

export const inverterListQuery = (q: InverterQuery) =>
  queryOptions({
    queryKey: inverterKeys.list(listParams(q)),
    queryFn: () => api.get('/api/v1/inverters', { query: listParams(q), silent: true }),
    placeholderData: (prev) => prev,
    ...LIVE_QUERY,
  });

export const inverterCountsQuery = queryOptions({
  queryKey: inverterKeys.counts,
  queryFn: () => api.get('/api/v1/inverters/count', { silent: true }),
  ...LIVE_QUERY,
});

export const inverterDetailQuery = (sn: string) =>
  queryOptions({
    queryKey: inverterKeys.detail(sn),
    queryFn: () =>
      api.get('/api/v1/inverter/{sn}', { path: { sn }, handledCodes: [ErrorCode.InverterMissing] }),
    retry: false,
    ...LIVE_QUERY,
  });

/** Realtime values: live. */
export const realtimeQuery = <P extends Port>(port: P, sn: string) =>
  queryOptions({
    queryKey: inverterKeys.realtime(port, sn),
    queryFn: () =>
      // the answer of this port's own path (TS does not tie a union of paths to the port)
      api.get(realtimePath(port), { path: { sn }, silent: true }) as Promise<RealtimeAnswers[P]>,
    ...LIVE_QUERY,
  });

export const seriesQuery = (port: Port, span: Span, sn: string, date: string) =>
  queryOptions({
    queryKey: inverterKeys.series(port, span, sn, date),
    queryFn: (): Promise<SeriesAnswer> =>
      api.get(seriesPath(port, span), {
        path: { sn },
        query: seriesQueryParams(port, span, date),
        silent: true,
      }),
  });

export function renameInverter(sn: string, alias: string): Promise<unknown> {
  return api.post('/api/v1/inverter/{sn}/alias', { path: { sn }, body: { alias } });
}

export function deleteInverter(sn: string): Promise<unknown> {
  return api.post('/api/v1/inverter/{sn}/delete', { body: {}, path: { sn } });
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
  return api.get(on ? '/api/v1/inverter/{sn}/boot' : '/api/v1/inverter/{sn}/shutdown', {
    path: { sn: sn.trim() },
    handledCodes: POWER_REFUSALS,
  });
}
