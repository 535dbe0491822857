import { api } from '@/shared/api/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { gatewayKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { ErrorCode, isApiError } from '@/shared/http';
import { oneOf, optionalId, text, type ListQuery } from '@/shared/list/params';

export type { GatewayRow } from '@/shared/api/gateways';

/** Where a gateway is: any, in stock (on no plant), or bound to a plant. */
export const PLACES = ['all', 'stock', 'bound'] as const;
export type Place = (typeof PLACES)[number];

/** The system gateway list's filters, kept in the URL. */
export const SYS_GATEWAY_FILTERS = {
  /** Part of the SN, alias or model. */
  keyword: text(),
  place: oneOf(PLACES, 'all'),
  /** A customer's (owner account's user id) gateways only. */
  customerId: optionalId(),
};

export type SysGatewayQuery = ListQuery<typeof SYS_GATEWAY_FILTERS>;

/** The list filters as query parameters (empty ones left out). */
export function sysGatewayParams(q: SysGatewayQuery): Record<string, string | number> {
  const params: Record<string, string | number> = {
    page: Math.max(1, Math.trunc(q.page)),
    limit: Math.min(100, Math.max(1, Math.trunc(q.limit))),
  };
  const keyword = q.keyword.trim();
  if (keyword) params.keyword = keyword;
  if (q.place === 'stock') params.stock = 'true';
  if (q.place === 'bound') params.bound = 'true';
  if (q.customerId !== null) params.customerId = q.customerId;
  return params;
}

export const sysGatewayListQuery = (q: SysGatewayQuery) =>
  queryOptions({
    // under the gateway keys: a gateway bound or removed elsewhere refreshes this list too
    queryKey: gatewayKeys.list({ ...sysGatewayParams(q), system: 1 }),
    queryFn: () => api.get('/api/v1/gateways', { query: sysGatewayParams(q), silent: true }),
    placeholderData: keepPreviousData,
  });

/** gateways.xlsx of the filtered list. */
export function downloadSysGateways(q: SysGatewayQuery): Promise<void> {
  const params = sysGatewayParams(q);
  delete params.page;
  delete params.limit;
  return api.download('/api/v1/gateways/downLoad', { query: params }, 'gateways.xlsx');
}

/** A gateway to register (POST /gateway/create, and each row of /gateway/batch). */
export type NewGateway = Schemas['CreateRequest'] & { sn: string; key: string };

/** The trimmed fields, empty optional ones left out. */
export function newGatewayBody(g: NewGateway): NewGateway {
  const body: NewGateway = { sn: g.sn.trim(), key: g.key.trim() };
  for (const f of ['model', 'commType', 'protocol'] as const) {
    const v = g[f]?.trim();
    if (v) body[f] = v;
  }
  return body;
}

export const createGateway = (g: NewGateway) =>
  api.post('/api/v1/gateway/create', {
    body: newGatewayBody(g),
    handledCodes: [ErrorCode.InvalidParameter, ErrorCode.GatewayUsed],
  });

/** Registers many gateways; every row answers on its own. */
export const createGateways = (gateways: readonly NewGateway[]) =>
  api.post('/api/v1/gateway/batch', {
    body: { gateways: gateways.map(newGatewayBody) },
    handledCodes: [ErrorCode.InvalidParameter],
  });

/**
 * Gives a gateway in stock to a customer's account, an owner's user id (null takes it back).
 * Refusals: 301 on a plant, 105 no such account, 4 `customerId` not an owner account, 305.
 * (The body `{customerId}` is typed here: the API document names it `CustomerRequest`, a name
 * the customers' own request takes there.)
 */
export const assignCustomer = (id: number, customerId: number | null) =>
  api.post('/api/v1/gateway/{id}/customer', {
    path: { id: String(id) },
    body: { customerId },
    handledCodes: [
      ErrorCode.InvalidParameter,
      ErrorCode.GatewayUsed,
      ErrorCode.NotRegistered,
      ErrorCode.GatewayMissing,
    ],
  });

/** Removes a gateway from the registry; 301 while it is on a plant. */
export const deleteGateway = (id: number) =>
  api.get('/api/v1/gateway/{id}/delete', {
    path: { id: String(id) },
    handledCodes: [ErrorCode.GatewayUsed, ErrorCode.GatewayMissing],
  });

/** A protocol config (GET /api/v1/logger/functions). */
export type ProtocolItem = Schemas['LoggerFunction'];

/** The protocol configs the register dialog offers (callers who may read them). */
export const protocolOptionsQuery = queryOptions({
  queryKey: gatewayKeys.protocols,
  queryFn: () => api.get('/api/v1/logger/functions', { silent: true }),
  retry: false,
  staleTime: 5 * 60_000,
});

/** A company as the customer picker offers it. */
export type CompanyOption = Pick<Schemas['CompanyInfo'], 'id' | 'name'>;

/** The companies whose customers a gateway may go to (the first 100 matching `name`). */
export const companyOptionsQuery = (name: string) =>
  queryOptions({
    queryKey: ['companies', 'options', name.trim()] as const,
    queryFn: async (): Promise<CompanyOption[]> => {
      const page = await api.get('/api/v1/company/list', {
        query: name.trim() ? { page: 1, limit: 100, name: name.trim() } : { page: 1, limit: 100 },
        silent: true,
      });
      return page.infos.map((c) => ({ id: c.id, name: c.name }));
    },
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

export type CustomerOption = Schemas['CustomerPick'];

/** One company's customers. */
export const companyCustomersQuery = (companyId: number) =>
  queryOptions({
    queryKey: ['customers', 'options', companyId] as const,
    queryFn: () => api.get('/api/v1/customers/list', { query: { companyId }, silent: true }),
    staleTime: 60_000,
  });

/** What a parameter refusal (4) names ("Parameter validation error: sn"), else null. */
export function refusalField(error: unknown): string | null {
  if (!isApiError(error, ErrorCode.InvalidParameter)) return null;
  return /:\s*([A-Za-z][\w.]*)/.exec(error.message)?.[1] ?? null;
}
