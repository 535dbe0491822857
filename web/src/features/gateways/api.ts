import { api } from '@/shared/api/client';
import { queryOptions } from '@tanstack/react-query';
import { gatewayKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { ErrorCode } from '@/shared/http';
import { agentParam } from '@/shared/api/pickers';
import { int, optionalId, text, type ListQuery } from '@/shared/list/params';
import { LIVE_QUERY } from '@/shared/api/live';

export type { GatewayDetail, GatewayDevice, GatewayRow } from '@/shared/api/gateways';

/** The answer of a key rotation: `pending` while the gateway has not confirmed it. */
export type RotatedKey = Schemas['RotatedKey'];

/** Gives the gateway a new registration key (sent to it on its command topic). */
export function rotateGatewayKey(sn: string): Promise<RotatedKey> {
  return api.post('/api/v1/gateway/{id}/key/rotate', {
    body: {},
    path: { id: sn },
    handledCodes: [ErrorCode.DeviceOffline, ErrorCode.ConnectionFailed, ErrorCode.KeyNotTaken],
  });
}

export type GatewayCounts = Schemas['GatewayCounts'];

/** The list's filters, kept in the URL. */
export const GATEWAY_FILTERS = {
  /** -1 any, 1 online, 0 offline. */
  status: int(-1),
  /** Seconds; -1 any. */
  uploadCycle: int(-1),
  /** Protocol config name; '' any. */
  protocol: text(),
  sn: text(),
  /** An agent company's gateways only; -1 any. */
  agentCompanyId: int(-1),
  /** A customer's (the plant owner's user id) gateways only. */
  customerId: optionalId(),
};

export type GatewayQuery = ListQuery<typeof GATEWAY_FILTERS>;

/** The list filters as query parameters (empty ones left out, "any" as -1). */
export function gatewayParams(q: GatewayQuery): Record<string, string | number> {
  const params: Record<string, string | number> = {
    page: q.page,
    limit: q.limit,
    status: q.status,
    uploadCycle: q.uploadCycle,
    protocol: q.protocol.trim() || -1,
    ...agentParam(q.agentCompanyId),
  };
  if (q.customerId !== null) params.customerId = q.customerId;
  if (q.sn.trim()) params.sn = q.sn.trim();
  return params;
}

export const gatewayListQuery = (q: GatewayQuery) =>
  queryOptions({
    queryKey: gatewayKeys.list(gatewayParams(q)),
    queryFn: () => api.get('/api/v1/gateways', { query: gatewayParams(q) }),
    placeholderData: (previous) => previous,
    // online state, signal and last message change while the screen stays open
    ...LIVE_QUERY,
  });

export const gatewayCountQuery = queryOptions({
  queryKey: gatewayKeys.counts,
  queryFn: () => api.get('/api/v1/gateways/count'),
  ...LIVE_QUERY,
});

export const gatewayDetailQuery = (id: string) =>
  queryOptions({
    queryKey: gatewayKeys.detail(id),
    queryFn: () =>
      api.get('/api/v1/gateway/{id}', { path: { id }, handledCodes: [ErrorCode.GatewayMissing] }),
    retry: false,
    ...LIVE_QUERY,
  });

/** gateways.xlsx of the filtered list. */
export function downloadGateways(q: GatewayQuery): Promise<void> {
  const params = gatewayParams(q);
  delete params.page;
  delete params.limit;
  return api.download('/api/v1/gateways/downLoad', { query: params }, 'gateways.xlsx');
}
