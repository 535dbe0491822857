import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from '@/shared/http';

/** An entry of GET /api/v1/audit. */
export interface AuditEntry {
  id: number;
  userId: number | null;
  account: string;
  plantId: number | null;
  plantName: string | null;
  action: string;
  target: string;
  detail: Record<string, unknown> | null;
  /** sent | succeeded | failed | refused */
  result: string;
  commandId: number | null;
  /** The command's status now, when the entry sent one. */
  commandStatus: string | null;
  createAt: string;
}

export interface Page<T> {
  pageSize: number;
  pageNumber: number;
  total: number;
  infos: T[];
}

export interface AuditQuery {
  page: number;
  limit: number;
  action: string;
  target: string;
  user: string;
  sdate: string;
  edate: string;
}

export const DEFAULT_AUDIT_QUERY: AuditQuery = {
  page: 1,
  limit: 10,
  action: '',
  target: '',
  user: '',
  sdate: '',
  edate: '',
};

/** Actions issue 7 records (others appear by name). */
export const KNOWN_ACTIONS = ['setting.set', 'inverter.boot', 'inverter.shutdown'];

export const auditQuery = (q: AuditQuery) =>
  queryOptions({
    queryKey: ['audit', q],
    queryFn: () => http.get<Page<AuditEntry>>('/api/v1/audit', { params: q }),
    placeholderData: keepPreviousData,
  });

/** The outcome to show: the command's status once it has one, else the entry's result. */
export function outcome(e: Pick<AuditEntry, 'result' | 'commandStatus'>): string {
  return e.commandStatus ?? e.result;
}

export function outcomeColor(status: string): string {
  switch (status) {
    case 'succeeded':
      return 'success';
    case 'failed':
    case 'timed_out':
    case 'refused':
      return 'error';
    default:
      return 'processing';
  }
}
