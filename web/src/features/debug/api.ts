import { queryOptions } from '@tanstack/react-query';
import { http } from '@/shared/http';

/** One exchange of the debug log (POST .../debug, GET /api/v1/debug/reply, the log list). */
export interface DebugEntry {
  id: number;
  commandId: number | null;
  sn: string;
  gatewaySn: string;
  targetKind: 'inverter' | 'gateway';
  account: string;
  plantId: number | null;
  plantName: string | null;
  /** Spaced upper-case hex. */
  request: string;
  /** Spaced upper-case hex once the device answered. */
  reply: string | null;
  /** sent | acknowledged | succeeded | failed | timed_out | refused */
  status: string;
  message: string;
  createAt: string;
  replyAt: string | null;
}

export interface Page<T> {
  pageSize: number;
  pageNumber: number;
  total: number;
  infos: T[];
}

export type TargetKind = DebugEntry['targetKind'];

/** The refusals a send may answer with; the screen shows them next to the frame. */
export const SEND_CODES = [2, 4, 305, 600, 602, 603, 604, 606];

export function isOpen(status: string): boolean {
  return status === 'sent' || status === 'acknowledged';
}

/** Sends a raw RTU frame (hex, CRC included) to an inverter or a gateway. */
export function sendFrame(kind: TargetKind, sn: string, code: string): Promise<DebugEntry> {
  const path = kind === 'gateway' ? 'gateway' : 'inverter';
  return http.post<DebugEntry>(
    `/api/v1/${path}/${encodeURIComponent(sn.trim())}/debug`,
    { code },
    { handledCodes: SEND_CODES },
  );
}

/** The exchange of a command, polled until the device answered or the command ended. */
export const debugReplyQuery = (commandId: number | null) =>
  queryOptions({
    queryKey: ['debug', 'reply', commandId],
    queryFn: () =>
      http.get<DebugEntry | null>('/api/v1/debug/reply', { params: { id: commandId } }),
    enabled: commandId !== null,
    refetchInterval: (query) => {
      const data = query.state.data;
      return !data || isOpen(data.status) ? 1000 : false;
    },
  });

export interface DebugLogQuery {
  page: number;
  limit: number;
  sn: string;
  user: string;
  /** '' any */
  targetKind: '' | TargetKind;
  /** YYYY-MM-DD or '' */
  sdate: string;
  edate: string;
}

export const DEFAULT_LOG_QUERY: DebugLogQuery = {
  page: 1,
  limit: 10,
  sn: '',
  user: '',
  targetKind: '',
  sdate: '',
  edate: '',
};

/** The filters as query parameters, empty ones left out. */
export function logParams(q: DebugLogQuery): Record<string, string | number> {
  const params: Record<string, string | number> = { page: q.page, limit: q.limit };
  if (q.sn.trim()) params.sn = q.sn.trim();
  if (q.user.trim()) params.user = q.user.trim();
  if (q.targetKind) params.targetKind = q.targetKind;
  if (q.sdate) params.sdate = q.sdate;
  if (q.edate) params.edate = q.edate;
  return params;
}

export const debugLogQuery = (q: DebugLogQuery) =>
  queryOptions({
    queryKey: ['debug', 'log', q],
    queryFn: () => http.get<Page<DebugEntry>>('/api/v1/logger/debug', { params: logParams(q) }),
    placeholderData: (previous) => previous,
    // replies of recent exchanges arrive while the screen is open
    refetchInterval: 15_000,
  });
