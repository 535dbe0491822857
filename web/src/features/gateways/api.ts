import { queryOptions } from '@tanstack/react-query';
import { http } from '@/shared/http';
import { downloadFile } from '@/shared/http/download';

export interface Page<T> {
  pageSize: number;
  pageNumber: number;
  total: number;
  infos: T[];
}

/** An item of GET /api/v1/gateways (API_CONVENTIONS.md plus plant and customer). */
export interface GatewayRow {
  id: number;
  sn: string;
  /** Always null in the list: the registration key is a secret (see GatewayDetail). */
  key: string | null;
  alias: string;
  status: number;
  /** 1 WiFi, 2 GPRS, 3 4G, 4 Ethernet, 5 RS485; null otherwise (the name is `commTypeName`). */
  commType: number | null;
  commTypeName: string;
  signal: number | null;
  softVer: string;
  hardVer: string;
  updateAt: string;
  /** Always null: third-party clients read it as a number; the protocol config is `proto`. */
  protocolType: null;
  proto: string;
  model: string;
  /** The time of the gateway's newest message, UTC `YYYY-MM-DD HH:mm:ss`. */
  lldt: string | null;
  /** The same as an ISO time (`YYYY-MM-DDTHH:mm:ssZ`). */
  lastMessageAt?: string | null;
  uploadCycle: number;
  devName: string;
  online: boolean;
  plantId: number | null;
  plantName: string | null;
  plant: { id: number; name: string | null } | null;
  customerId: number | null;
  customerName: string | null;
  createAt: string;
}

/** A device behind a gateway (GET /api/v1/gateway/{id}). */
export interface GatewayDevice {
  id: number;
  sn: string;
  family: 'inverter' | 'battery' | 'meter' | 'weather_station' | string;
  type: number;
  alias: string;
  model: string;
  status: number;
  online: boolean;
  parentSn: string | null;
  lastSeen: string | null;
}

export interface GatewayDetail extends GatewayRow {
  devices: GatewayDevice[];
  /** Whether the caller may read and rotate the key; only then do `key`, `keyPending` and
   * `keyChangedAt` come. */
  keyEditable: boolean;
  keyPending?: boolean;
  keyChangedAt?: string | null;
}

/** The answer of a key rotation: `pending` while the gateway has not confirmed it. */
export interface RotatedKey {
  key: string;
  status: 'succeeded' | 'pending';
  commandId: number;
}

/** Gives the gateway a new registration key (sent to it on its command topic). */
export function rotateGatewayKey(sn: string): Promise<RotatedKey> {
  return http.post<RotatedKey>(
    `/api/v1/gateway/${encodeURIComponent(sn)}/key/rotate`,
    {},
    { handledCodes: [602, 606, 609] },
  );
}

export interface GatewayCounts {
  total: number;
  online: number;
  offline: number;
}

export interface GatewayQuery {
  page: number;
  limit: number;
  /** -1 any, 1 online, 0 offline. */
  status: number;
  /** Seconds; -1 any. */
  uploadCycle: number;
  /** Protocol config name; '' any. */
  protocol: string;
  sn: string;
}

/** How often open gateway screens read again. */
const REFRESH_MS = 5_000;

export const DEFAULT_QUERY: GatewayQuery = {
  page: 1,
  limit: 10,
  status: -1,
  uploadCycle: -1,
  protocol: '',
  sn: '',
};

/** The list filters as query parameters (empty ones left out, "any" as -1). */
export function gatewayParams(q: GatewayQuery): Record<string, string | number> {
  const params: Record<string, string | number> = {
    page: q.page,
    limit: q.limit,
    status: q.status,
    uploadCycle: q.uploadCycle,
    protocol: q.protocol.trim() || -1,
  };
  if (q.sn.trim()) params.sn = q.sn.trim();
  return params;
}

export const gatewayListQuery = (q: GatewayQuery) =>
  queryOptions({
    queryKey: ['gateways', 'list', q],
    queryFn: () => http.get<Page<GatewayRow>>('/api/v1/gateways', { params: gatewayParams(q) }),
    placeholderData: (previous) => previous,
    // online state, signal and last message change while the screen stays open; a gateway
    // that stops reporting turns offline within three upload cycles (15 s in the demo)
    refetchInterval: REFRESH_MS,
  });

export const gatewayCountQuery = queryOptions({
  queryKey: ['gateways', 'count'],
  queryFn: () => http.get<GatewayCounts>('/api/v1/gateways/count'),
  refetchInterval: REFRESH_MS,
});

export const gatewayDetailQuery = (id: string) =>
  queryOptions({
    queryKey: ['gateways', 'detail', id],
    queryFn: () =>
      http.get<GatewayDetail>(`/api/v1/gateway/${encodeURIComponent(id)}`, {
        handledCodes: [305],
      }),
    retry: false,
    refetchInterval: REFRESH_MS,
  });

/** gateways.xlsx of the filtered list. */
export function downloadGateways(q: GatewayQuery): Promise<void> {
  const params = gatewayParams(q);
  delete params.page;
  delete params.limit;
  return downloadFile('/api/v1/gateways/downLoad', params, 'gateways.xlsx');
}
