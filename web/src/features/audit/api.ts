import { api } from '@/shared/api/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { auditKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { day, text, type ListQuery } from '@/shared/list/params';

/** An entry of GET /api/v1/audit. */
export type AuditEntry = Schemas['AuditEntry'];

/** The log's filters, kept in the URL. */
export const AUDIT_FILTERS = {
  action: text(),
  target: text(),
  user: text(),
  sdate: day(),
  edate: day(),
};

export type AuditQuery = ListQuery<typeof AUDIT_FILTERS>;

/** Actions the portal records (an action not listed here still shows, by name). */
export const KNOWN_ACTIONS = [
  'setting.set',
  'inverter.boot',
  'inverter.shutdown',
  'inverter.upgrade',
  'inverter.upgrade.cancel',
  'inverter.debug',
  'gateway.restart',
  'gateway.replace',
  'gateway.protocol',
  'gateway.settings',
  'gateway.debug',
  'gateway.upgrade',
  'gateway.unbind',
  'gateway.delete',
  'gateway.key.rotate',
  'gateway.register',
  'gateway.customer',
  'firmware.upload',
  'firmware.edit',
  'firmware.enable',
  'firmware.disable',
  'firmware.delete',
  'inverterType.add',
  'inverterType.edit',
  'inverterType.move',
  'inverterType.delete',
  'company.add',
  'company.edit',
  'company.disable',
  'company.enable',
  'company.logo.upload',
  'company.logo',
  'company.theme',
  'staff.add',
  'staff.edit',
  'staff.delete',
  'role.add',
  'role.edit',
  'role.delete',
  'customer.add',
  'customer.edit',
  'customer.remove',
  'customer.offer',
  'customer.accept',
  'customer.decline',
  'customer.withdraw',
  'customer.leave',
  'customerType.add',
  'customerType.edit',
  'customerType.delete',
  'agent.add',
  'agent.delete',
  'agent.offer',
  'agent.accept',
  'agent.decline',
  'agent.withdraw',
  'agent.leave',
  'product.create',
  'product.edit',
  'product.delete',
  'inverter.product',
  'protocol.save',
];

/** The screen of an entry's target: an inverter, a gateway, or none (firmware). */
export function targetPath(e: Pick<AuditEntry, 'action' | 'target'>): string | null {
  const sn = encodeURIComponent(e.target);
  if (e.action.startsWith('gateway.')) return `/device/gateway/${sn}`;
  if (e.action.startsWith('inverter.') || e.action.startsWith('setting.'))
    return `/device/inverter/${sn}`;
  return null;
}

export const auditQuery = (q: AuditQuery) =>
  queryOptions({
    queryKey: auditKeys.list(q),
    queryFn: () => api.get('/api/v1/audit', { query: q }),
    placeholderData: keepPreviousData,
  });

/** The outcome to show: the command's status once it has one, else the entry's result. */
export function outcome(e: Pick<AuditEntry, 'result' | 'commandStatus'>): string {
  return e.commandStatus ?? e.result;
}
