import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/shared/api/client';
import type { Schemas } from '@/shared/api/schema';
import { withCompany, type Scope } from '@/shared/company';
import { oneOf, optionalId, type ListQuery } from '@/shared/list/params';

/** GET /api/v1/alarm/cases: one case (docs/alarms.md). */
export type AlarmCase = Schemas['AlarmCase'];
/** GET /api/v1/alarm/case/{id}: a case with its history. */
export type AlarmCaseDetail = Schemas['AlarmCaseDetail'];
export type AlarmCaseEvent = Schemas['AlarmCaseEvent'];
/** GET /api/v1/alarm/rules: a rule of the company. */
export type AlarmRule = Schemas['AlarmRule'];
export type AlarmParams = Schemas['AlarmParams'];
export type AlarmRuleKind = Schemas['AlarmRuleKind'];
export type AlarmSeverity = Schemas['AlarmSeverity'];
export type AlarmScope = Schemas['AlarmScope'];
/** POST /api/v1/alarm/rule and /api/v1/alarm/rule/{id}. */
export type RuleRequest = Schemas['RuleRequest'];

export const KINDS: readonly AlarmRuleKind[] = [
  'device_silent',
  'no_production',
  'low_yield',
  'string_low',
  'cell_spread',
  'soh_falling',
  'event_code',
];
export const SEVERITIES: readonly AlarmSeverity[] = ['alarm', 'warning'];
export const STATES = ['open', 'acknowledged', 'closed'] as const;

/** Query keys: a change refreshes everything under `alarmKeys.all`. */
export const alarmKeys = {
  all: ['alarms'] as const,
  cases: (params: Readonly<object>) => ['alarms', 'cases', params] as const,
  detail: (id: number) => ['alarms', 'case', id] as const,
  rules: (scope: Scope) => ['alarms', 'rules', scope ?? 0] as const,
  plants: (name: string) => ['alarms', 'plants', name] as const,
};

/** The list's filters, kept in the URL. */
export const ALARM_FILTERS = {
  state: oneOf(['', ...STATES] as const, ''),
  kind: oneOf(['', ...KINDS] as const, ''),
  severity: oneOf(['', ...SEVERITIES] as const, ''),
  plantId: optionalId(),
};
export type AlarmFilter = ListQuery<typeof ALARM_FILTERS>;
export const ALARM_PAGE_SIZE = 20;

/** The filters as query parameters; "any" is left out. */
export function caseParams(f: AlarmFilter): Record<string, string | number> {
  const params: Record<string, string | number> = { page: f.page, limit: f.limit };
  if (f.state) params.state = f.state;
  if (f.kind) params.kind = f.kind;
  if (f.severity) params.severity = f.severity;
  if (f.plantId !== null) params.plantId = f.plantId;
  return params;
}

export const caseListQuery = (f: AlarmFilter) =>
  queryOptions({
    queryKey: alarmKeys.cases(caseParams(f)),
    queryFn: () => api.get('/api/v1/alarm/cases', { query: caseParams(f) }),
    placeholderData: keepPreviousData,
    // the engine opens and closes cases every 30 s
    refetchInterval: 60_000,
  });

export const caseDetailQuery = (id: number) =>
  queryOptions({
    queryKey: alarmKeys.detail(id),
    queryFn: () => api.get('/api/v1/alarm/case/{id}', { path: { id } }),
  });

export const acknowledge = (id: number, comment: string) =>
  api.post('/api/v1/alarm/case/{id}/acknowledge', {
    path: { id },
    body: comment.trim() ? { comment: comment.trim() } : {},
  });

export const rulesQuery = (scope: Scope) =>
  queryOptions({
    queryKey: alarmKeys.rules(scope),
    queryFn: () => api.get('/api/v1/alarm/rules', { query: withCompany(scope) }),
  });

export const addRule = (scope: Scope, body: RuleRequest) =>
  api.post('/api/v1/alarm/rule', { body: withCompany(scope, body) });

export const saveRule = (scope: Scope, id: number, body: RuleRequest) =>
  api.post('/api/v1/alarm/rule/{id}', { path: { id }, body: withCompany(scope, body) });

export const deleteRule = (scope: Scope, id: number) =>
  api.post('/api/v1/alarm/rule/{id}/delete', {
    path: { id },
    query: withCompany(scope),
    body: undefined,
  });

/** Plants for the plant filter and a rule's plant scope (the first 100 matching the name). */
export const plantOptionsQuery = (name: string) =>
  queryOptions({
    queryKey: alarmKeys.plants(name),
    queryFn: () => api.get('/api/v1/plants', { query: { page: 1, limit: 100, name } }),
    staleTime: 60_000,
  });
