import { api } from '@/shared/api/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { messageKeys } from '@/shared/api/keys';
import type { MessageItem } from '@/shared/api/messages';
import { currentLanguage } from '@/shared/i18n';
import { oneOf, type ListQuery } from '@/shared/list/params';

/** Read state: every message, the unread ones, the read (or recovered) ones. */
export const READ_STATES = ['all', 'unread', 'read'] as const;
/** What a message is: a warning or a fault of a plant, or a notice ('' any). */
export const KINDS = ['warning', 'fault', 'notice'] as const;
export type Kind = (typeof KINDS)[number];

/** The screen's filters, kept in the URL. */
export const NOTIFICATION_FILTERS = {
  read: oneOf(READ_STATES, 'all'),
  kind: oneOf<Kind | ''>(['', ...KINDS], ''),
};
export type NotificationQuery = ListQuery<typeof NOTIFICATION_FILTERS>;

const STATUS = { all: -1, unread: 0, read: 1 } as const;

/** GET /api/v1/messages parameters: its own paging names, `status`, `source` and `type`. */
export function notificationParams(q: NotificationQuery): Record<string, string | number> {
  const params: Record<string, string | number> = {
    pageNumber: q.page,
    pageSize: q.limit,
    status: STATUS[q.read],
  };
  if (q.kind === 'notice') params.source = 'notice';
  else if (q.kind) {
    params.source = 'event';
    params.type = q.kind;
  }
  return params;
}

/**
 * One page of the caller's messages. The key sits under the bell's (`messageKeys.all`): a
 * message read here or there refreshes both.
 */
export const notificationListQuery = (q: NotificationQuery) =>
  queryOptions({
    // the titles and contents come translated by the server
    queryKey: [...messageKeys.all, 'page', currentLanguage(), notificationParams(q)] as const,
    queryFn: () => api.get('/api/v1/messages', { query: notificationParams(q), silent: true }),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });

const DEVICE_PATHS: Record<string, string> = {
  inverter: 'inverter',
  battery: 'battery',
  meter: 'meter',
  weather_station: 'weather',
};

/** Where a message leads: its plant's overview and its device's screen, when it has them. */
export function messageLinks(m: MessageItem): {
  plant: { to: string; name: string } | null;
  device: { to: string; sn: string } | null;
} {
  const plantId = m.plantId ?? m.event?.plantId ?? null;
  // the overview reads the plant's own type once loaded; 0 stands in until then
  const plant =
    plantId !== null
      ? { to: `/plants/overview/${plantId}/0`, name: m.event?.plantName || String(plantId) }
      : null;
  const sn = m.sn ?? m.event?.sn ?? null;
  const segment = m.event?.deviceType ? DEVICE_PATHS[m.event.deviceType] : undefined;
  const device = sn && segment ? { to: `/device/${segment}/${encodeURIComponent(sn)}`, sn } : null;
  return { plant, device };
}

/** The kind a message shows as. */
export function kindOf(m: Pick<MessageItem, 'source' | 'type'>): Kind {
  if (m.source === 'notice') return 'notice';
  return m.type === 'fault' ? 'fault' : 'warning';
}
