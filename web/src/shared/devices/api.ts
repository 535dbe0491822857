import { queryOptions } from '@tanstack/react-query';
import { plantOptionsQuery } from '@/shared/api/plants';
import type { Schemas } from '@/shared/api/schema';
import { ErrorCode, http, type Page } from '@/shared/http';
import { int, optionalId, text, type ListQuery } from '@/shared/list/params';
import type { DeviceKind } from './kind';

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

export function listParams(q: DeviceQuery): Record<string, string | number> {
  return {
    page: Math.max(1, Math.trunc(q.page)),
    limit: Math.min(100, Math.max(1, Math.trunc(q.limit))),
    status: q.status,
    sn: q.sn.trim(),
    plantId: q.plantId ?? '',
  };
}

const enc = encodeURIComponent;

/** The list, counts and plant-filter queries of one kind of device. */
export function deviceListQueries<Row>(kind: DeviceKind) {
  const keys = kind.keys;
  return {
    list: (q: DeviceQuery) =>
      queryOptions({
        queryKey: keys.list(listParams(q)),
        queryFn: () => http.get<Page<Row>>(kind.listUrl, { params: listParams(q), silent: true }),
        placeholderData: (prev: Page<Row> | undefined) => prev,
      }),
    counts: queryOptions({
      queryKey: keys.counts,
      queryFn: () => http.get<StatusCounts>(kind.countsUrl, { silent: true }),
    }),
    plants: plantOptionsQuery,
  };
}

/** A device's live values: code 600 (no such device) is the page's to show; once a minute. */
export const deviceRealtimeQuery = <T>(kind: DeviceKind, sn: string) =>
  queryOptions({
    queryKey: kind.keys.realtime(sn),
    queryFn: () =>
      http.get<T>(`${kind.deviceUrl}/${enc(sn)}/realtime`, {
        handledCodes: [ErrorCode.InverterMissing],
      }),
    retry: false,
    refetchInterval: 60_000,
  });

/** A device's history of a span (`day`, `month`, …) at a date (none for the total). */
export const deviceSeriesQuery = (kind: DeviceKind, sn: string, span: string, date: string) =>
  queryOptions({
    queryKey: kind.keys.series(sn, span, date),
    queryFn: () =>
      http.get<SeriesList>(`${kind.deviceUrl}/${enc(sn)}/${span}`, {
        params: date ? { date } : {},
        silent: true,
      }),
  });

export const renameDevice = (kind: DeviceKind, sn: string, alias: string) =>
  http.post(`${kind.deviceUrl}/${enc(sn)}/alias`, { alias });

export const deleteDevice = (kind: DeviceKind, sn: string): Promise<unknown> =>
  http.post(`${kind.deviceUrl}/${enc(sn)}/delete`);
