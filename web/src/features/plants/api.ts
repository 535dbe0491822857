import { queryOptions } from '@tanstack/react-query';
import { http } from '@/shared/http';

/** Plant status codes (docs/overview.md). */
export const PLANT_STATUSES = [
  { value: 1, key: 'normal' },
  { value: 0, key: 'offline' },
  { value: 2, key: 'warning' },
  { value: 3, key: 'fault' },
  { value: 4, key: 'upgrading' },
] as const;

export interface Page<T> {
  pageSize: number;
  pageNumber: number;
  total: number;
  infos: T[];
}

/** An item of GET /api/v1/plants. */
export interface PlantRow {
  id: number;
  name: string;
  masterId: number;
  status: number;
  thumbUrl: string | null;
  address: string | null;
  pac: number | null;
  efficiency: number | null;
  etoday: number | null;
  etotal: number | null;
  updateAt: string | null;
  createAt: string | null;
  type: number;
  totalPower: number | null;
  lon: number | null;
  lat: number | null;
  share: boolean;
  plantPermission: string[];
  existCamera?: boolean;
  /** Waiting for the account it was made for to accept it. */
  offered?: boolean;
}

export interface MapPlant {
  id: number;
  name: string;
  lon: number | null;
  lat: number | null;
  status: number;
  type: number;
  totalPower: number | null;
  address: string | null;
  thumbUrl: string | null;
}

export interface Charge {
  id?: number;
  type: number;
  price: number | string;
  startRange?: string | null;
  endRange?: string | null;
  status?: null | 'import' | 'export';
}

export interface Dict {
  id: number;
  code?: string;
  text?: string;
  name?: string;
}

/** GET /api/v1/plant/{id}. */
export interface PlantDetail {
  id: number;
  name: string;
  totalPower: number | null;
  thumbUrl: string | null;
  imageUrl: string | null;
  joinDate: string | null;
  type: number;
  status: number;
  charges: Charge[];
  valuation: number | null;
  lon: number | null;
  lat: number | null;
  address: string | null;
  master: { id: number; nickname: string | null; mobile: string | null; account?: string } | null;
  currency: Dict | null;
  timezone: Dict | null;
  createAt: string | null;
  phone: string | null;
  email: string | null;
  installer: string | null;
  principal: string | null;
  invest: number | null;
  plantPermission: string[];
  share: boolean;
  companyId: number | null;
  /** The account the plant waits to be accepted by (those who may see the plant read it). */
  offer?: { account: string; nickname: string; offeredAt: string } | null;
}

/** A plant offered to the caller (GET /api/v1/plant/offers). */
export interface PlantOffer {
  plantId: number;
  name: string;
  address: string;
  totalPower: number;
  type: number;
  companyId: number | null;
  companyName: string | null;
  offeredBy: string;
  offeredByName: string;
  offeredAt: string;
}

export interface FilterOptions {
  status: { value: number; key: string; label: string; count: number }[];
  type: { value: number; label: string }[];
}

export interface ShareUser {
  userId: number;
  account: string;
  nickname: string | null;
  role: 'visitor' | 'maintainer';
  createAt: string | null;
}

export interface PlantQuery {
  page: number;
  limit: number;
  name: string;
  status: number;
  type: number;
  sort: 'createAt' | 'name' | 'totalPower' | 'status';
  order: 'asc' | 'desc';
}

export const DEFAULT_QUERY: PlantQuery = {
  page: 1,
  limit: 10,
  name: '',
  status: -1,
  type: -1,
  sort: 'createAt',
  order: 'desc',
};

/** The query string of GET /plants (and, without paging, of /plants/map). */
export function listParams(q: PlantQuery, paged = true): Record<string, string | number> {
  const params: Record<string, string | number> = {
    name: q.name.trim(),
    status: q.status,
    type: q.type,
    sort: q.sort,
    order: q.order,
  };
  if (paged) {
    params.page = Math.max(1, Math.trunc(q.page));
    params.limit = Math.min(100, Math.max(1, Math.trunc(q.limit)));
  }
  return params;
}

export const plantKeys = {
  all: ['plants'] as const,
  list: (q: PlantQuery) => ['plants', 'list', listParams(q)] as const,
  map: (q: PlantQuery) => ['plants', 'map', listParams(q, false)] as const,
  filter: ['plants', 'filter'] as const,
  detail: (id: number) => ['plants', 'detail', id] as const,
  shares: (id: number) => ['plants', 'shares', id] as const,
  gateways: (id: number) => ['plants', 'gateways', id] as const,
  gateway: (gatewayId: number) => ['plants', 'gateway', gatewayId] as const,
  offers: ['plants', 'offers'] as const,
};

export const plantOffersQuery = queryOptions({
  queryKey: plantKeys.offers,
  queryFn: () => http.get<PlantOffer[]>('/api/v1/plant/offers', { silent: true }),
});

export const plantListQuery = (q: PlantQuery) =>
  queryOptions({
    queryKey: plantKeys.list(q),
    queryFn: () =>
      http.get<Page<PlantRow>>('/api/v1/plants', { params: listParams(q), silent: true }),
    placeholderData: (prev) => prev,
  });

export const plantMapQuery = (q: PlantQuery) =>
  queryOptions({
    queryKey: plantKeys.map(q),
    queryFn: () =>
      http.get<MapPlant[]>('/api/v1/plants/map', { params: listParams(q, false), silent: true }),
  });

export const plantFilterQuery = queryOptions({
  queryKey: plantKeys.filter,
  queryFn: () => http.get<FilterOptions>('/api/v1/plant/filter', { silent: true }),
});

export const plantDetailQuery = (id: number) =>
  queryOptions({
    queryKey: plantKeys.detail(id),
    queryFn: () =>
      http.get<PlantDetail>(`/api/v1/plant/${id}`, { params: { id }, handledCodes: [700] }),
    retry: false,
  });

export const shareUsersQuery = (id: number) =>
  queryOptions({
    queryKey: plantKeys.shares(id),
    queryFn: () => http.get<ShareUser[]>(`/api/v1/plant/${id}/getShareUsers`),
  });

const dictQuery = (name: string, lan: string) =>
  queryOptions({
    queryKey: ['dict', name, lan],
    queryFn: () => http.get<Dict[]>(`/api/v1/dict/${name}`, { params: { lan } }),
    staleTime: Infinity,
  });
export const currenciesQuery = (lan: string) => dictQuery('currencies', lan);
export const timezonesQuery = (lan: string) => dictQuery('timezones', lan);
export const plantTypesQuery = (lan: string) => dictQuery('plantTypes', lan);

// ---- gateways ------------------------------------------------------------------------------

/** An item of GET /api/v1/gateways. */
export interface GatewayRow {
  id: number;
  sn: string;
  key?: string | null;
  status: number;
  online?: boolean | null;
  signal: number | null;
  softVer: string | null;
  hardVer: string | null;
  updateAt: string | null;
  uploadCycle?: number | null;
  commTypeName?: string | null;
  alias: string | null;
  plantId: number | null;
  plantName: string | null;
  createAt: string | null;
}

export interface GatewayDevice {
  sn: string;
  family?: string | null;
  typeCode?: number | null;
  model?: string | null;
  status?: number | null;
  online?: boolean | null;
}

/** GET /api/v1/gateway/{id}. */
export interface GatewayDetail extends GatewayRow {
  devices: GatewayDevice[];
}

export const plantGatewaysQuery = (plantId: number) =>
  queryOptions({
    queryKey: plantKeys.gateways(plantId),
    queryFn: () =>
      http.get<Page<GatewayRow>>('/api/v1/gateways', {
        params: { page: 1, limit: 50, plantId },
        silent: true,
      }),
  });

export const gatewayDetailQuery = (gatewayId: number) =>
  queryOptions({
    queryKey: plantKeys.gateway(gatewayId),
    queryFn: () => http.get<GatewayDetail>(`/api/v1/gateway/${gatewayId}`, { silent: true }),
  });

/** 0 when the gateway exists with this key and is free; 300, 301 are shown at the fields. */
export const checkGateway = (sn: string, key: string) =>
  http.post('/api/v1/gateway/import/one/check', { sn, key }, { handledCodes: [300, 301] });
/** Binds the gateway (and the devices behind it) to the plant. */
export const bindGateway = (plantId: number, sn: string, key: string, silent = false) =>
  http.post(`/api/v1/plant/${plantId}/gateway`, { sn, key }, { handledCodes: [300, 301], silent });
export const unbindGateway = (gatewayId: number) =>
  http.post(`/api/v1/gateway/${gatewayId}/unbind`);

// ---- writes ---------------------------------------------------------------------------------

export const createPlant = (body: Record<string, unknown>) =>
  http.post<number>('/api/v1/plant', body, { handledCodes: [10, 105] });

export const saveInfo = (id: number, body: Record<string, unknown>) =>
  http.post(`/api/v1/plant/${id}/info`, body, { handledCodes: [10] });
export const saveContacts = (id: number, body: Record<string, unknown>) =>
  http.post(`/api/v1/plant/${id}/contacts`, body);
export const saveIncome = (id: number, body: Record<string, unknown>) =>
  http.post(`/api/v1/plant/${id}/income`, body);

export function uploadPlantImage(file: File): Promise<{ url: string; thumbUrl: string }> {
  const form = new FormData();
  form.append('file', file);
  return http.post('/api/v1/plant/thumbnail', form, { handledCodes: [11, 12] });
}

export const sharePlant = (id: number, account: string, role: string) =>
  http.post(`/api/v1/plant/${id}/share`, { account, role }, { handledCodes: [701, 702, 703, 105] });
export const cancelShare = (id: number, userId?: number) =>
  http.post(`/api/v1/plant/${id}/cancelShare`, userId === undefined ? {} : { userId });
export const transferPlant = (id: number, account: string) =>
  http.post(`/api/v1/plant/${id}/transfer`, null, {
    params: { account },
    handledCodes: [704, 105],
  });
export const deletePlant = (id: number) => http.post(`/api/v1/plant/${id}/delete`);
export const acceptOffer = (id: number) =>
  http.post(`/api/v1/plant/${id}/offer/accept`, {}, { handledCodes: [700] });
export const declineOffer = (id: number) =>
  http.post(`/api/v1/plant/${id}/offer/decline`, {}, { handledCodes: [700] });
export const withdrawOffer = (id: number) => http.post(`/api/v1/plant/${id}/offer/cancel`);
