import { api } from '@/shared/api/client';
import { queryOptions } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import { eventKeys, messageKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { currentLanguage } from '@/shared/i18n';
import { day, oneOf, optionalId, text, type ListQuery } from '@/shared/list/params';

export type Severity = Schemas['Severity'];

/** One device of an occurrence, with its own times. */
export type EventDevice = Schemas['OccurrenceDevice'];

/** One occurrence (the same event on several devices of a plant at once): `sn` is its first
 * device, `devices` each with its own times. */
export type Occurrence = Schemas['OccurrenceItem'];

/**
 * One event as every event list answers it (docs/api.md, "Events"): one device's event, or, in
 * the lists for people, an occurrence with `deviceCount` and `devices`.
 */
export type EventItem = Schemas['EventItem'] &
  Partial<Pick<Occurrence, 'deviceCount' | 'openCount' | 'devices'>>;

/** GET /api/v1/events: occurrences, or devices' events with `group=0`. */
export type EventPage = Omit<Schemas['EventList'], 'record'> & { record: EventItem[] };

export const DEVICE_TYPES = ['inverter', 'battery', 'meter', 'weather_station'] as const;

/** The list's filters, kept in the URL; `sdate`, `edate` a day range (both or neither). */
export const EVENT_FILTERS = {
  plantId: optionalId(),
  sn: text(),
  deviceType: oneOf(['', ...DEVICE_TYPES] as const, ''),
  severity: oneOf(['', 'info', 'warning', 'fault'] as const, ''),
  status: oneOf(['', 'open', 'closed'] as const, ''),
  sdate: day(),
  edate: day(),
};

/** Events come 20 to a page. */
export const EVENT_PAGE_SIZE = 20;

export type EventFilter = ListQuery<typeof EVENT_FILTERS>;

/** The filters as query parameters; "any" is left out. */
export function eventParams(f: EventFilter): Record<string, string | number> {
  const params: Record<string, string | number> = { page: f.page, limit: f.limit };
  if (f.plantId !== null) params.plantId = f.plantId;
  if (f.sn.trim()) params.sn = f.sn.trim();
  if (f.deviceType) params.deviceType = f.deviceType;
  if (f.severity) params.severity = f.severity;
  if (f.status) params.status = f.status;
  if (f.sdate && f.edate) {
    params.sdate = f.sdate;
    params.edate = f.edate;
  }
  return params;
}

export const eventListQuery = (f: EventFilter) =>
  queryOptions({
    // the language is part of the key: meaning and solution come translated by the server
    queryKey: eventKeys.list(currentLanguage(), eventParams(f)),
    queryFn: (): Promise<EventPage> => api.get('/api/v1/events', { query: eventParams(f) }),
    placeholderData: (previous) => previous,
    // events open and close while the screen stays open (it is kept alive in the menu)
    refetchInterval: 60_000,
  });

export const eventDetailQuery = (id: number) =>
  queryOptions({
    queryKey: eventKeys.detail(currentLanguage(), id),
    queryFn: (): Promise<EventItem> => api.get('/api/v1/event/detail/{id}', { path: { id } }),
  });

/** Plants for the plant filter (the first 100 matching the typed name). */
export const plantOptionsQuery = (name: string) =>
  queryOptions({
    queryKey: eventKeys.plants(name),
    queryFn: () => api.get('/api/v1/plants', { query: { page: 1, limit: 100, name } }),
    staleTime: 60_000,
  });

/** Inverter or battery events of the filters as an .xlsx. */
export function downloadEvents(kind: 'inverter' | 'battery', f: EventFilter): Promise<void> {
  const params = eventParams(f);
  delete params.page;
  delete params.limit;
  const url =
    kind === 'inverter'
      ? '/api/v1/workdata/event/download'
      : '/api/v1/workdata/battery/event/download';
  return api.download(url, { query: params }, `${kind}-events.xlsx`);
}

/** A device's dynamic data (its reports) over at most 31 days, chosen columns, as an .xlsx. */
export function downloadDynamic(sn: string, range: [Dayjs, Dayjs], columns: string): Promise<void> {
  const params: Record<string, string> = {
    sn: sn.trim(),
    sdate: range[0].format('YYYY-MM-DD'),
    edate: range[1].format('YYYY-MM-DD'),
  };
  const column = columns
    .split(/[,\s]+/)
    .map((c) => c.trim())
    .filter(Boolean)
    .join(',');
  if (column) params.column = column;
  return api.download(
    '/api/v1/workdata/dynamic/download',
    { query: params },
    `dynamic-${sn.trim()}.xlsx`,
  );
}

export {
  messageCountQuery,
  readAllMessages,
  readMessage,
  type MessageItem,
} from '@/shared/api/messages';

export const messageListQuery = () =>
  queryOptions({
    queryKey: messageKeys.list(currentLanguage()),
    queryFn: () =>
      api.get('/api/v1/messages', { query: { pageSize: 10, pageNumber: 1, status: -1 } }),
  });
