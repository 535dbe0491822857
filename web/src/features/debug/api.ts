import { api } from '@/shared/api/client';
import { queryOptions } from '@tanstack/react-query';
import { debugKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { isOpen } from '@/shared/commands/api';
import { COMMAND_REFUSALS } from '@/shared/http';
import { day, oneOf, text, type ListQuery } from '@/shared/list/params';

/** One exchange of the debug log (POST .../debug, GET /api/v1/debug/reply, the log list). */
export type DebugEntry = Schemas['DebugEntry'];

/** What a frame goes to (`targetKind` of an entry). */
export type TargetKind = 'inverter' | 'gateway';

/** Sends a raw RTU frame (hex, CRC included) to an inverter or a gateway. */
export function sendFrame(kind: TargetKind, sn: string, code: string): Promise<DebugEntry> {
  const path = kind === 'gateway' ? '/api/v1/gateway/{sn}/debug' : '/api/v1/inverter/{sn}/debug';
  return api.post(path, {
    path: { sn: sn.trim() },
    body: { code },
    // refusals are shown next to the frame
    handledCodes: COMMAND_REFUSALS,
  });
}

/** The exchange of a command, polled until the device answered or the command ended. */
export const debugReplyQuery = (commandId: number | null) =>
  queryOptions({
    queryKey: debugKeys.reply(commandId),
    queryFn: () => api.get('/api/v1/debug/reply', { query: { id: commandId } }),
    enabled: commandId !== null,
    refetchInterval: (query) => {
      const data = query.state.data;
      return !data || isOpen(data.status) ? 1000 : false;
    },
  });

/** The log's filters, kept in the URL. */
export const DEBUG_LOG_FILTERS = {
  sn: text(),
  user: text(),
  /** '' any */
  targetKind: oneOf(['', 'inverter', 'gateway'] as const, ''),
  sdate: day(),
  edate: day(),
};

export type DebugLogQuery = ListQuery<typeof DEBUG_LOG_FILTERS>;

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
    queryKey: debugKeys.log(logParams(q)),
    queryFn: () => api.get('/api/v1/logger/debug', { query: logParams(q) }),
    placeholderData: (previous) => previous,
    // replies of recent exchanges arrive while the screen is open
    refetchInterval: 15_000,
  });
