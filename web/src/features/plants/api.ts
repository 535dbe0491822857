import { api, type BodyOf } from '@/shared/api/client';
import { queryOptions } from '@tanstack/react-query';
import { dictKeys, plantKeys } from '@/shared/api/keys';
import type { Dict } from '@/shared/api/plants';
import type { Schemas } from '@/shared/api/schema';
import { ErrorCode } from '@/shared/http';
import { agentParam } from '@/shared/api/pickers';
import { int, oneOf, optionalId, text, type ListQuery } from '@/shared/list/params';
import { GATEWAY_FIELD_CODES } from './gateway';
import { LIVE_QUERY } from '@/shared/api/live';

export type { TariffRow, PlantDetail } from '@/shared/api/plants';
export { plantDetailQuery } from '@/shared/api/plants';

/** An item of GET /api/v1/plants. */
export type PlantRow = Schemas['PlantItem'];

/** A marker of GET /api/v1/plants/map. */
export type MapPlant = Schemas['PlantMarker'];

/** A plant offered to the caller (GET /api/v1/plant/offers). */
export type PlantOffer = Schemas['PlantOffer'];

/** GET /api/v1/plant/filter. */
export type FilterOptions = Schemas['FilterChoices'];

/** An item of GET /api/v1/plant/{id}/getShareUsers. */
export type ShareUser = Schemas['ShareUser'];

/** The list's search, filters and sorting, kept in the URL. */
export const PLANT_FILTERS = {
  name: text(),
  status: int(-1),
  type: int(-1),
  sort: oneOf(['createAt', 'name', 'totalPower', 'status'] as const, 'createAt'),
  order: oneOf(['asc', 'desc'] as const, 'desc'),
  /** An agent company's plants only; -1 any. */
  agentCompanyId: int(-1),
  /** One owner account's plants only (its user id, from the customer list); null any. */
  customerId: optionalId(),
  /** 1: only the plants others shared with the caller; 0 every plant. */
  share: int(0),
};

export type PlantQuery = ListQuery<typeof PLANT_FILTERS>;

/** The query string of GET /plants (and, without paging, of /plants/map). */
export function listParams(q: PlantQuery, paged = true): Record<string, string | number> {
  const params: Record<string, string | number> = {
    name: q.name.trim(),
    status: q.status,
    type: q.type,
    sort: q.sort,
    order: q.order,
    ...agentParam(q.agentCompanyId),
  };
  if (q.customerId !== null && q.customerId > 0) params.customerId = q.customerId;
  if (q.share === 1) params.share = 1;
  if (paged) {
    params.page = Math.max(1, Math.trunc(q.page));
    params.limit = Math.min(100, Math.max(1, Math.trunc(q.limit)));
  }
  return params;
}

export const plantOffersQuery = queryOptions({
  queryKey: plantKeys.offers,
  queryFn: () => api.get('/api/v1/plant/offers', { silent: true }),
});

/** Companies asking the caller to become their customer (answered on /shares). */
export const customerAsksQuery = queryOptions({
  queryKey: [...plantKeys.all, 'customerAsks'] as const,
  queryFn: () => api.get('/api/v1/customer/offers/received', { silent: true }),
});

export const plantListQuery = (q: PlantQuery) =>
  queryOptions({
    queryKey: plantKeys.list(listParams(q)),
    queryFn: () => api.get('/api/v1/plants', { query: listParams(q), silent: true }),
    placeholderData: (prev) => prev,
    ...LIVE_QUERY,
  });

export const plantMapQuery = (q: PlantQuery) =>
  queryOptions({
    queryKey: plantKeys.map(listParams(q, false)),
    queryFn: () => api.get('/api/v1/plants/map', { query: listParams(q, false), silent: true }),
    ...LIVE_QUERY,
  });

export const plantFilterQuery = queryOptions({
  queryKey: plantKeys.filter,
  queryFn: () => api.get('/api/v1/plant/filter', { silent: true }),
});

export const shareUsersQuery = (id: number) =>
  queryOptions({
    queryKey: plantKeys.shares(id),
    queryFn: () => api.get('/api/v1/plant/{id}/getShareUsers', { path: { id } }),
  });

type DictName = 'currencies' | 'plantTypes' | 'timezones';

const dictQuery = (name: DictName, lan: string) =>
  queryOptions({
    queryKey: dictKeys.one(name, lan),
    queryFn: (): Promise<Dict[]> => api.get(`/api/v1/dict/${name}`, { lan }),
    staleTime: Infinity,
  });
export const currenciesQuery = (lan: string) => dictQuery('currencies', lan);
export const timezonesQuery = (lan: string) => dictQuery('timezones', lan);
export const plantTypesQuery = (lan: string) => dictQuery('plantTypes', lan);

// ---- gateways ------------------------------------------------------------------------------

export const plantGatewaysQuery = (plantId: number) =>
  queryOptions({
    queryKey: plantKeys.gatewayList(plantId),
    queryFn: () =>
      api.get('/api/v1/gateways', { query: { page: 1, limit: 50, plantId }, silent: true }),
    ...LIVE_QUERY,
  });

/** The devices behind one of the plant's gateways. */
export const gatewayDetailQuery = (plantId: number, gatewayId: number) =>
  queryOptions({
    queryKey: plantKeys.gatewayDevices(plantId, gatewayId),
    queryFn: () =>
      api.get('/api/v1/gateway/{id}', { path: { id: String(gatewayId) }, silent: true }),
    ...LIVE_QUERY,
  });

/** 0 when the gateway exists with this key and is free (refusals shown at the fields). */
export const checkGateway = (sn: string, key: string) =>
  api.post('/api/v1/gateway/import/one/check', {
    body: { sn, key },
    handledCodes: GATEWAY_FIELD_CODES,
  });
/** Binds the gateway (and the devices behind it) to the plant. */
export const bindGateway = (plantId: number, sn: string, key: string, silent = false) =>
  api.post('/api/v1/plant/{id}/gateway', {
    path: { id: plantId },
    body: { sn, key },
    handledCodes: GATEWAY_FIELD_CODES,
    silent,
  });
export const unbindGateway = (gatewayId: number) =>
  api.post('/api/v1/gateway/{id}/unbind', { path: { id: String(gatewayId) } });

// ---- writes ---------------------------------------------------------------------------------

/** The body of every plant write (create, and each part of the edit screen). */
export type PlantBody = BodyOf<'/api/v1/plant'>;

export const createPlant = (body: PlantBody) =>
  api.post('/api/v1/plant', { body, handledCodes: [ErrorCode.BadLonLat, ErrorCode.NotRegistered] });

export const saveInfo = (id: number, body: PlantBody) =>
  api.post('/api/v1/plant/{id}/info', { path: { id }, body, handledCodes: [ErrorCode.BadLonLat] });
export const saveContacts = (id: number, body: PlantBody) =>
  api.post('/api/v1/plant/{id}/contacts', { path: { id }, body });
export const saveTariff = (id: number, body: PlantBody) =>
  api.post('/api/v1/plant/{id}/income', { path: { id }, body });

export function uploadPlantImage(file: File): Promise<Schemas['PictureUrls']> {
  const form = new FormData();
  form.append('file', file);
  return api.post('/api/v1/plant/thumbnail', {
    body: form,
    handledCodes: [ErrorCode.UnsupportedFile, ErrorCode.FileTooLarge],
  });
}

export const sharePlant = (id: number, account: string, role: string) =>
  api.post('/api/v1/plant/{id}/share', {
    path: { id },
    body: { account, role },
    handledCodes: [
      ErrorCode.ShareSelf,
      ErrorCode.ShareCompanyUser,
      ErrorCode.ShareCompanyPlant,
      ErrorCode.NotRegistered,
    ],
  });
export const cancelShare = (id: number, userId?: number) =>
  api.post('/api/v1/plant/{id}/cancelShare', {
    path: { id },
    body: userId === undefined ? {} : { userId },
  });
export const transferPlant = (id: number, account: string) =>
  api.post('/api/v1/plant/{id}/transfer', {
    path: { id },
    query: { account },
    handledCodes: [ErrorCode.TransferSelf, ErrorCode.NotRegistered],
  });
export const deletePlant = (id: number) => api.post('/api/v1/plant/{id}/delete', { path: { id } });
export const acceptOffer = (id: number) =>
  api.post('/api/v1/plant/{id}/offer/accept', {
    body: {},
    path: { id },
    handledCodes: [ErrorCode.PlantMissing],
  });
export const declineOffer = (id: number) =>
  api.post('/api/v1/plant/{id}/offer/decline', {
    body: {},
    path: { id },
    handledCodes: [ErrorCode.PlantMissing],
  });
export const withdrawOffer = (id: number) =>
  api.post('/api/v1/plant/{id}/offer/cancel', { path: { id } });
