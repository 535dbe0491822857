import { api } from '@/shared/api/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Schemas } from '@/shared/api/schema';
import { ErrorCode } from '@/shared/http';
import { oneOf, optionalId, text, type ListQuery, type Param } from '@/shared/list/params';

/** A gateway of the communication log (GET /api/v1/logger, /logger/plant, /logger/getInverterLogger). */
export type LoggerGateway = Schemas['LoggerItem'];

/** `up`: the gateway sent it; `down`: the portal published it to the gateway. */
export type Direction = Schemas['LogMessage']['direction'];
export const DIRECTIONS = ['up', 'down'] as const satisfies readonly Direction[];

/** What the link knows a message to be; the server may add kinds, shown as they come. */
export const KINDS = ['telemetry', 'status', 'event', 'reply', 'command', 'will'] as const;

/** One logged MQTT message of a gateway (GET /api/v1/logger/page), newest first. */
export type LoggedMessage = Schemas['LogMessage'];

/** One message with its whole payload (GET /api/v1/logger/content): text, or hex when binary. */
export type LoggedContent = Schemas['LogContent'];

/** The keys of the screen's requests (all under one root, so a refresh reaches every part). */
export const commLogKeys = {
  all: ['commLog'] as const,
  gateways: (params: Readonly<Record<string, string | number>>) =>
    ['commLog', 'gateways', params] as const,
  device: (sn: string) => ['commLog', 'device', sn] as const,
  messages: (params: Readonly<Record<string, string | number>>) =>
    ['commLog', 'messages', params] as const,
  content: (id: number) => ['commLog', 'content', id] as const,
};

/** The gateway list's filters, kept in the URL. */
export const GATEWAY_FILTERS = {
  keyword: text(),
  plantId: optionalId(),
};
export type GatewayQuery = ListQuery<typeof GATEWAY_FILTERS>;

export function gatewayParams(q: GatewayQuery): Record<string, string | number> {
  const params: Record<string, string | number> = { page: q.page, limit: q.limit };
  if (q.keyword.trim()) params.keyword = q.keyword.trim();
  if (q.plantId !== null) params.plantId = q.plantId;
  return params;
}

export const gatewayListQuery = (q: GatewayQuery) =>
  queryOptions({
    queryKey: commLogKeys.gateways(gatewayParams(q)),
    queryFn: () => api.get('/api/v1/logger', { query: gatewayParams(q), silent: true }),
    placeholderData: keepPreviousData,
  });

/** The gateway a device reports through; code 4 (`sn`) when there is none the caller may see. */
export const deviceGatewayQuery = (sn: string) =>
  queryOptions({
    queryKey: commLogKeys.device(sn),
    queryFn: () =>
      api.get('/api/v1/logger/getInverterLogger/{sn}', {
        path: { sn },
        handledCodes: [ErrorCode.InvalidParameter],
      }),
    retry: false,
  });

const MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** A local date and time to the minute (`YYYY-MM-DDTHH:mm`); empty is "any". */
export const minute = (): Param<string> => ({
  fallback: '',
  parse: (raw) => (MINUTE.test(raw) ? raw : undefined),
  format: (value) => value,
});

/**
 * A gateway's messages: `sn` the gateway, the filters and the time range (local, to the minute;
 * sent as UTC as the API reads it).
 */
export const MESSAGE_FILTERS = {
  sn: text(),
  direction: oneOf<Direction | ''>(['', ...DIRECTIONS], ''),
  kind: text(),
  from: minute(),
  to: minute(),
};
export type MessageQuery = ListQuery<typeof MESSAGE_FILTERS>;

/** A local `YYYY-MM-DDTHH:mm` as the API's UTC `YYYY-MM-DD HH:MM:SS`; '' when not a time. */
export function toUtc(local: string, endOfMinute = false): string {
  const at = new Date(`${local}:${endOfMinute ? '59' : '00'}`);
  if (!MINUTE.test(local) || Number.isNaN(at.getTime())) return '';
  return at.toISOString().slice(0, 19).replace('T', ' ');
}

export function messageParams(q: MessageQuery): Record<string, string | number> {
  const params: Record<string, string | number> = {
    sn: q.sn.trim(),
    page: q.page,
    limit: Math.min(100, q.limit),
  };
  if (q.direction) params.direction = q.direction;
  if (q.kind.trim()) params.kind = q.kind.trim();
  const sdate = toUtc(q.from);
  const edate = toUtc(q.to, true);
  if (sdate) params.sdate = sdate;
  if (edate) params.edate = edate;
  return params;
}

/** Auto-refresh: how often the open page is read again. */
export const AUTO_REFRESH_MS = 5_000;

export const messagePageQuery = (q: MessageQuery, autoRefresh: boolean) =>
  queryOptions({
    queryKey: commLogKeys.messages(messageParams(q)),
    queryFn: () => api.get('/api/v1/logger/page', { query: messageParams(q), silent: true }),
    enabled: q.sn.trim() !== '',
    placeholderData: keepPreviousData,
    refetchInterval: autoRefresh ? AUTO_REFRESH_MS : false,
  });

export const contentQuery = (id: number) =>
  queryOptions({
    queryKey: commLogKeys.content(id),
    queryFn: () => api.get('/api/v1/logger/content', { query: { id }, silent: true }),
    // a stored message never changes
    staleTime: Infinity,
  });
