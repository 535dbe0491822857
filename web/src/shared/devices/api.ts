import { queryOptions } from '@tanstack/react-query';
import { plantOptionsQuery } from '@/shared/api/plants';
import type { Schemas } from '@/shared/api/schema';
import { api, type PathOf, type RequestOptions } from '@/shared/api/client';
import { ErrorCode } from '@/shared/http';
import { int, optionalId, text, type ListQuery } from '@/shared/list/params';
import type { DeviceKind, DeviceListParams } from './kind';
import { LIVE_QUERY } from '@/shared/api/live';

export type { Series } from '@/shared/api/series';

/** Status counts of a device list (statuses of docs/overview.md). */
export type StatusCounts = Schemas['DeviceCounts'];

/** Numeric values arrive as strings ("52.4") or null (docs/api-conventions.md). */
export type NumText = string | null;

/** What every device list row has (the columns, filters and links the screens share): the
 * common device fields, `stale` (its newest data is past its offline bound, or it never
 * reported) and the plant's `timezone` (UTC without a plant), in which its times are shown. */
export type DeviceRowBase = Schemas['DeviceItem'] & Schemas['Live'];

/** The series of a day curve or of energy bars. */
export type SeriesList = Schemas['SeriesList'];

/** A device list's filters, kept in the URL. */
export const DEVICE_FILTERS = {
  status: int(-1),
  sn: text(),
  plantId: optionalId(),
};

export type DeviceQuery = ListQuery<typeof DEVICE_FILTERS>;

export function listParams(q: DeviceQuery): DeviceListParams {
  return {
    page: Math.max(1, Math.trunc(q.page)),
    limit: Math.min(100, Math.max(1, Math.trunc(q.limit))),
    status: q.status,
    sn: q.sn.trim(),
    plantId: q.plantId,
  };
}

/** The list, counts and plant-filter queries of one kind of device. */
export function deviceListQueries<Row>(kind: DeviceKind<Row>) {
  const keys = kind.keys;
  return {
    list: (q: DeviceQuery) =>
      queryOptions({
        queryKey: keys.list(listParams(q)),
        queryFn: () => kind.list(listParams(q), { silent: true }),
        placeholderData: (prev: Awaited<ReturnType<typeof kind.list>> | undefined) => prev,
        ...LIVE_QUERY,
      }),
    counts: queryOptions({
      queryKey: keys.counts,
      queryFn: (): Promise<StatusCounts> => kind.counts({ silent: true }),
      ...LIVE_QUERY,
    }),
    plants: plantOptionsQuery,
  };
}

/** A device's live values: code 600 (no such device) is the page's to show. */
export const deviceRealtimeQuery = <T>(
  kind: DeviceKind,
  sn: string,
  fetch: (sn: string, options: RequestOptions) => Promise<T>,
) =>
  queryOptions({
    queryKey: kind.keys.realtime(sn),
    queryFn: () => fetch(sn, { handledCodes: [ErrorCode.InverterMissing] }),
    retry: false,
    ...LIVE_QUERY,
  });

/** The history of a device over a span: `/api/v1/meter/{sn}/day`, `…/month`, …. */
export type SeriesPath = Extract<
  PathOf<'get'>,
  `/api/v1/${string}/{sn}/${'day' | 'month' | 'year' | 'total'}`
>;

/** A device's history of a span (its path's last part) at a date (none for the total). */
export const deviceSeriesQuery = (kind: DeviceKind, path: SeriesPath, sn: string, date: string) =>
  queryOptions({
    queryKey: kind.keys.series(sn, path.slice(path.lastIndexOf('/') + 1), date),
    queryFn: (): Promise<SeriesList> =>
      api.get(path, { path: { sn }, query: date ? { date } : {}, silent: true }),
  });
