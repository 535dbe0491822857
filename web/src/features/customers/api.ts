import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ErrorCode, http, isApiError, type Page } from '@/shared/http';
import type { Schemas } from '@/shared/api/schema';
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
}

/** The body of POST /api/v1/customer/{id}. */
export interface CustomerEdit {
  typeId: number | null;
  remark: string;
}

/** The query keys of these screens; `customers` first so one invalidation refreshes them all. */
export const customerKeys = {
  all: ['customers'] as const,
  list: (params: Readonly<Record<string, string | number>>) =>
    ['customers', 'list', params] as const,
  types: ['customers', 'types'] as const,
  typeTree: ['customers', 'types', 'tree'] as const,
  typeOptions: ['customers', 'types', 'options'] as const,
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

export const customerListQuery = (q: CustomerQuery) =>
  queryOptions({
    queryKey: customerKeys.list(customerParams(q)),
    queryFn: () =>
      http.get<Page<Customer>>('/api/v1/customers', { params: customerParams(q), silent: true }),
    placeholderData: keepPreviousData,
  });

export const customerTypeTreeQuery = queryOptions({
  queryKey: customerKeys.typeTree,
  queryFn: () => http.get<CustomerTypeNode[]>('/api/v1/customer/types', { silent: true }),
});

export const customerTypeOptionsQuery = queryOptions({
  queryKey: customerKeys.typeOptions,
  queryFn: () => http.get<CustomerTypeOption[]>('/api/v1/customerTypes', { silent: true }),
});

// ---- customers --------------------------------------------------------------------------

/** The refusals /customer/check and POST /customer answer for an account, shown at the field. */
export const ACCOUNT_REFUSALS: readonly number[] = [
  ErrorCode.NotRegistered,
  ErrorCode.InvalidParameter,
  ErrorCode.AlreadyCustomer,
];

/** Resolves when the account can become a customer; rejects with 105, 4 or 207 otherwise. */
export const checkCustomer = (account: string) =>
  http.get<null>('/api/v1/customer/check', {
    params: { account: account.trim() },
    handledCodes: ACCOUNT_REFUSALS,
  });

export const addCustomer = (body: NewCustomer) =>
  http.post<number>(
    '/api/v1/customer',
    { ...body, account: body.account.trim() } satisfies Schemas['CustomerRequest'],
    { handledCodes: ACCOUNT_REFUSALS },
  );

export const editCustomer = (id: number, body: CustomerEdit) =>
  http.post<null>(`/api/v1/customer/${id}`, body satisfies Schemas['CustomerRequest']);

/** The owner keeps the account and the plants; the company no longer sees them. */
export const removeCustomer = (id: number) =>
  http.request<null>({ method: 'DELETE', url: `/api/v1/customers/delete/${id}` });

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

export const createCustomerType = (body: CustomerTypeBody) =>
  http.post<number>('/api/v1/customerType', body satisfies Schemas['TypeRequest'], {
    handledCodes: [ErrorCode.DictCodeExists, ErrorCode.InvalidParameter],
  });

export const updateCustomerType = (id: number, body: CustomerTypeBody) =>
  http.post<null>(`/api/v1/customerType/${id}`, body satisfies Schemas['TypeRequest'], {
    handledCodes: [ErrorCode.DictCodeExists, ErrorCode.InvalidParameter],
  });

export const deleteCustomerType = (id: number) =>
  http.post<null>(
    `/api/v1/customerType/${id}/delete`,
    {},
    { handledCodes: [ErrorCode.InvalidParameter] },
  );

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
