import { queryOptions } from '@tanstack/react-query';
import { api } from '@/shared/api/client';
import { dictKeys, fleetKeys } from '@/shared/api/keys';
import { LIVE_QUERY } from '@/shared/api/live';
import { agentParam } from '@/shared/api/pickers';
import type { Schemas } from '@/shared/api/schema';
import { int, oneOf, optionalId, type ListQuery } from '@/shared/list/params';

/** GET /api/v1/fleet/summary. */
export type FleetSummary = Schemas['FleetSummary'];
export type FleetAlarm = Schemas['FleetAlarm'];
export type FleetSilentPlant = Schemas['FleetSilentPlant'];
export type FleetYield = Schemas['FleetYield'];
export type FleetPeriod = Schemas['FleetPeriod'];

export const PERIODS: readonly FleetPeriod[] = ['today', '7d', '30d'];

/** The dashboard's filters (the plant list's) and the ranking's period, kept in the URL. */
export const FLEET_FILTERS = {
  status: int(-1),
  type: int(-1),
  /** An agent company's plants only; -1 any. */
  agentCompanyId: int(-1),
  /** One owner account's plants only; null any. */
  customerId: optionalId(),
  period: oneOf(PERIODS, 'today'),
};

export type FleetQuery = ListQuery<typeof FLEET_FILTERS>;

/** The plant list's filters of the query, as both the dashboard and the plant list read them. */
export function filterParams(q: FleetQuery): Record<string, number> {
  const params: Record<string, number> = { ...agentParam(q.agentCompanyId) };
  if (q.status >= 0) params.status = q.status;
  if (q.type > 0) params.type = q.type;
  if (q.customerId !== null && q.customerId > 0) params.customerId = q.customerId;
  return params;
}

/** The query string of GET /api/v1/fleet/summary. */
export function fleetParams(q: FleetQuery): Record<string, string | number> {
  return { ...filterParams(q), period: q.period };
}

export const fleetSummaryQuery = (q: FleetQuery) =>
  queryOptions({
    queryKey: fleetKeys.summary(fleetParams(q)),
    queryFn: () => api.get('/api/v1/fleet/summary', { query: fleetParams(q), silent: true }),
    // a switch of period or filter keeps the figures shown until the new ones arrive
    placeholderData: (previous) => previous,
    ...LIVE_QUERY,
  });

/** The plant types the type filter offers, in the caller's language (a fixed dictionary). */
export const plantTypesQuery = (lan: string) =>
  queryOptions({
    queryKey: dictKeys.one('plantTypes', lan),
    queryFn: () => api.get('/api/v1/dict/plantTypes', { lan, silent: true }),
    staleTime: Infinity,
  });

const search = (params: Record<string, string | number>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) s.set(k, String(v));
  const text = s.toString();
  return text ? `?${text}` : '';
};

/** The plant list with the dashboard's filters, narrowed to one status when given. */
export function plantListHref(q: FleetQuery, status?: number): string {
  const params: Record<string, number> = filterParams(q);
  if (status !== undefined) params.status = status;
  return `/plants${search(params)}`;
}

/** A plant's overview. */
export const overviewHref = (plantId: number, plantType: number) =>
  `/plants/overview/${plantId}/${plantType}`;

/** The events list: the open events, of one plant when given. */
export function openEventsHref(plantId?: number): string {
  return `/device/event${search(plantId === undefined ? { status: 'open' } : { plantId, status: 'open' })}`;
}
