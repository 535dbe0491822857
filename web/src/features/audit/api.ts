import { api } from '@/shared/api/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { auditKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { Enums } from '@/shared/api/enums.gen';
import { day, oneOf, text, type ListQuery } from '@/shared/list/params';

/** An entry of GET /api/v1/audit. */
export type AuditEntry = Schemas['AuditEntry'];

/** An action of the audit catalogue. */
export type AuditAction = Schemas['AuditAction'];

/** How an entry ended (before its command's outcome, if it sent one). */
export type AuditResult = Schemas['AuditResult'];

/** The log's filters, kept in the URL. */
export const AUDIT_FILTERS = {
  action: oneOf<AuditAction | ''>(['', ...Enums.AuditAction], ''),
  target: text(),
  user: text(),
  sdate: day(),
  edate: day(),
};

export type AuditQuery = ListQuery<typeof AUDIT_FILTERS>;

/** Actions the portal records, from the server's audit catalogue (an action not listed, e.g.
 * one of a newer server, still shows, by name). */
export const KNOWN_ACTIONS: readonly AuditAction[] = Enums.AuditAction;

/** Energy-hub actions done to one inverter, whose target is its SN. */
const ON_INVERTER: readonly string[] = [
  'energyhub.dispatch',
  'energyhub.restore',
] satisfies AuditAction[];

/** Gateway actions about many gateways at once, whose target names no one gateway. */
const ON_MANY_GATEWAYS: readonly string[] = [
  'gateway.batchRegister',
  'gateway.import',
] satisfies AuditAction[];

/** The screen of an entry's target: an inverter, a gateway, or none (firmware, accounts). */
export function targetPath(e: Pick<AuditEntry, 'action' | 'target'>): string | null {
  const sn = encodeURIComponent(e.target);
  if (ON_MANY_GATEWAYS.includes(e.action)) return null;
  if (e.action.startsWith('gateway.')) return `/device/gateway/${sn}`;
  if (
    e.action.startsWith('inverter.') ||
    e.action.startsWith('setting.') ||
    ON_INVERTER.includes(e.action)
  )
    return `/device/inverter/${sn}`;
  return null;
}

export const auditQuery = (q: AuditQuery) =>
  queryOptions({
    queryKey: auditKeys.list(q),
    queryFn: () => api.get('/api/v1/audit', { query: { ...q, action: q.action || undefined } }),
    placeholderData: keepPreviousData,
  });

/** The outcome to show: the command's status once it has one, else the entry's result. */
export function outcome(e: Pick<AuditEntry, 'result' | 'commandStatus'>): string {
  return e.commandStatus ?? e.result;
}
