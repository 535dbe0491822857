import { api } from '@/shared/api/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ErrorCode, isApiError } from '@/shared/http';
import type { Schemas } from '@/shared/api/schema';
import { withCompany, type Scope } from '@/shared/company';
import { optionalId, text, type ListQuery } from '@/shared/list/params';

/** An item of GET /api/v1/customers (`id` is the customers row, `userId` the owner account). */
export type Customer = Schemas['Customer'];

/** A node of GET /api/v1/customer/types (the company's type tree). */
export type CustomerTypeNode = Schemas['CustomerTypeNode'];

/** An item of GET /api/v1/customerTypes (flat, for pickers). */
export type CustomerTypeOption = Schemas['CustomerTypeItem'];

/** The body of POST /api/v1/customerType and /customerType/{id}. */
export interface CustomerTypeBody {
  code: string;
  name: string;
  remark: string;
  parentId: number | null;
}

/** The body of POST /api/v1/customer. */
export interface NewCustomer {
  account: string;
  typeId?: number | null;
  remark?: string;
  /** A note to the owner with the request. */
  message?: string;
}

/** A request the company waits on (GET /api/v1/customer/offers). */
export type CustomerOffer = Schemas['CustomerOffer'];

/** The body of POST /api/v1/customer/{id}. */
export interface CustomerEdit {
  typeId: number | null;
  remark: string;
}

/**
 * The query keys of these screens; `customers` first so one invalidation refreshes them all.
 * Each carries the company (0: the caller's own), as an internal administrator may look at
 * several one after another.
 *
 * Every request below takes the scope: an internal administrator names the company with
 * `companyId` (query string or JSON body, as the endpoint reads it); everyone else sends none.
 */
export const customerKeys = {
  all: ['customers'] as const,
  list: (scope: Scope, params: Readonly<Record<string, string | number>>) =>
    ['customers', 'list', scope ?? 0, params] as const,
  typeTree: (scope: Scope) => ['customers', 'types', 'tree', scope ?? 0] as const,
  typeOptions: (scope: Scope) => ['customers', 'types', 'options', scope ?? 0] as const,
  offers: (scope: Scope) => ['customers', 'offers', scope ?? 0] as const,
};

/** The list's search and type filter, kept in the URL. */
export const CUSTOMER_FILTERS = {
  name: text(),
  typeId: optionalId(),
};

export type CustomerQuery = ListQuery<typeof CUSTOMER_FILTERS>;

/** The query string of GET /api/v1/customers (empty filters left out). */
export function customerParams(q: CustomerQuery): Record<string, string | number> {
  const params: Record<string, string | number> = {
    page: Math.max(1, Math.trunc(q.page)),
    limit: Math.min(100, Math.max(1, Math.trunc(q.limit))),
  };
  const name = q.name.trim();
  if (name) params.name = name;
  if (q.typeId !== null) params.typeId = q.typeId;
  return params;
}

export const customerListQuery = (q: CustomerQuery, scope: Scope) =>
  queryOptions({
    queryKey: customerKeys.list(scope, customerParams(q)),
    queryFn: () =>
      api.get('/api/v1/customers', { query: withCompany(scope, customerParams(q)), silent: true }),
    placeholderData: keepPreviousData,
  });

export const customerTypeTreeQuery = (scope: Scope) =>
  queryOptions({
    queryKey: customerKeys.typeTree(scope),
    queryFn: () => api.get('/api/v1/customer/types', { query: withCompany(scope), silent: true }),
  });

export const customerTypeOptionsQuery = (scope: Scope) =>
  queryOptions({
    queryKey: customerKeys.typeOptions(scope),
    queryFn: () => api.get('/api/v1/customerTypes', { query: withCompany(scope), silent: true }),
  });

// ---- customers --------------------------------------------------------------------------

/** The owners asked to become customers who have not answered yet. */
export const customerOffersQuery = (scope: Scope) =>
  queryOptions({
    queryKey: customerKeys.offers(scope),
    queryFn: () => api.get('/api/v1/customer/offers', { query: withCompany(scope), silent: true }),
  });

/** Takes back a request; one answered meanwhile answers 4. */
export const withdrawCustomerOffer = (id: number, scope: Scope) =>
  api.post('/api/v1/customer/offer/{id}/withdraw', {
    body: {},
    path: { id },
    handledCodes: [ErrorCode.InvalidParameter],
    ...(scope === undefined ? {} : { params: withCompany(scope) }),
  });

/** The refusals /customer/check and POST /customer answer for an account, shown at the field. */
export const ACCOUNT_REFUSALS: readonly number[] = [
  ErrorCode.NotRegistered,
  ErrorCode.InvalidParameter,
  ErrorCode.AlreadyCustomer,
];

/** Resolves when the account can become a customer; rejects with 105, 4 or 207 otherwise. */
export const checkCustomer = (account: string, scope: Scope) =>
  api.get('/api/v1/customer/check', {
    query: withCompany(scope, { account: account.trim() }),
    handledCodes: ACCOUNT_REFUSALS,
  });

export const addCustomer = (body: NewCustomer, scope: Scope) =>
  api.post('/api/v1/customer', {
    body: withCompany(scope, {
      ...body,
      account: body.account.trim(),
    }) satisfies Schemas['CustomerRequest'],
    handledCodes: ACCOUNT_REFUSALS,
  });

export const editCustomer = (id: number, body: CustomerEdit, scope: Scope) =>
  api.post('/api/v1/customer/{id}', {
    path: { id },
    body: withCompany(scope, body) satisfies Schemas['CustomerRequest'],
  });

/** The owner keeps the account and the plants; the company no longer sees them. */
export const removeCustomer = (id: number, scope: Scope) =>
  api.delete('/api/v1/customers/delete/{id}', {
    path: { id },
    ...(scope === undefined ? {} : { query: withCompany(scope) }),
  });

/** Disables or enables a customer's owner account (internal administrators only). */
export const setOwnerDisabled = (userId: number, disabled: boolean) =>
  api.post('/api/v1/owner/{id}/disable', { path: { id: userId }, body: { disabled } });

/**
 * The locale key of an account refusal: not registered (105), not an owner account (4), already
 * this company's customer (207); null for anything else.
 */
export function accountRefusalKey(error: unknown): string | null {
  if (isApiError(error, ErrorCode.NotRegistered)) return 'customers.refusal.notRegistered';
  if (isApiError(error, ErrorCode.AlreadyCustomer)) return 'customers.refusal.already';
  // 4 names the field: only the account's is about the account (a type or remark is not)
  if (
    isApiError(error, ErrorCode.InvalidParameter) &&
    (refusalDetail(error) ?? 'account') === 'account'
  )
    return 'customers.refusal.notOwner';
  return null;
}

// ---- customer types ---------------------------------------------------------------------

export const createCustomerType = (body: CustomerTypeBody, scope: Scope) =>
  api.post('/api/v1/customerType', {
    body: withCompany(scope, body) satisfies Schemas['TypeRequest'],
    handledCodes: [ErrorCode.DictCodeExists, ErrorCode.InvalidParameter],
  });

export const updateCustomerType = (id: number, body: CustomerTypeBody, scope: Scope) =>
  api.post('/api/v1/customerType/{id}', {
    path: { id },
    body: withCompany(scope, body) satisfies Schemas['TypeRequest'],
    handledCodes: [ErrorCode.DictCodeExists, ErrorCode.InvalidParameter],
  });

/** The server reads `companyId` of a deletion from the query string (the body is empty). */
export const deleteCustomerType = (id: number, scope: Scope) =>
  api.post('/api/v1/customerType/{id}/delete', {
    body: {},
    path: { id },
    handledCodes: [ErrorCode.InvalidParameter],
    ...(scope === undefined ? {} : { params: withCompany(scope) }),
  });

/**
 * What a parameter refusal (code 4) names: the server appends it to the message
 * ("Parameter validation error: children"); null when it names nothing.
 */
export function refusalDetail(error: unknown): string | null {
  if (!isApiError(error, ErrorCode.InvalidParameter)) return null;
  const m = /:\s*([A-Za-z][\w.]*)\s*$/.exec(error.message);
  return m?.[1] ?? null;
}

/** The locale key of a refused type deletion: it has subtypes, or customers; null otherwise. */
export function deleteRefusalKey(error: unknown): string | null {
  const detail = refusalDetail(error);
  if (detail === 'children') return 'customerTypes.refusal.children';
  if (detail === 'customers') return 'customerTypes.refusal.customers';
  return null;
}
