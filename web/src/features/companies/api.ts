import { api } from '@/shared/api/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ErrorCode, isApiError } from '@/shared/http';
import type { Schemas } from '@/shared/api/schema';
import { text, type ListQuery } from '@/shared/list/params';

/** An item of GET /api/v1/company/list (internal administrators). */
export type CompanyInfo = Schemas['CompanyInfo'];

/** The company's own fields (POST /company/{id}/edit, and the first part of /company/add). */
export interface CompanyFields {
  name: string;
  contactName: string;
  email: string;
  phone: string;
  address: string;
  remark: string;
}

/** POST /api/v1/company/add: the company and its administrator account (new or existing). */
export interface NewCompany extends CompanyFields {
  adminAccount: string;
  adminPassword: string;
  adminNickname: string;
}

export const companyKeys = {
  all: ['companies'] as const,
  list: (params: Readonly<Record<string, string | number>>) =>
    ['companies', 'list', params] as const,
};

/** The list's search, kept in the URL. */
export const COMPANY_FILTERS = {
  name: text(),
};

export type CompanyQuery = ListQuery<typeof COMPANY_FILTERS>;

export function companyParams(q: CompanyQuery): Record<string, string | number> {
  const params: Record<string, string | number> = {
    page: Math.max(1, Math.trunc(q.page)),
    limit: Math.min(100, Math.max(1, Math.trunc(q.limit))),
  };
  const name = q.name.trim();
  if (name) params.name = name;
  return params;
}

export const companyListQuery = (q: CompanyQuery) =>
  queryOptions({
    queryKey: companyKeys.list(companyParams(q)),
    queryFn: () => api.get('/api/v1/company/list', { query: companyParams(q), silent: true }),
    placeholderData: keepPreviousData,
  });

/** Resolves when no other company (than `id`) has the name; rejects with 203 when one has. */
export const checkCompanyName = (name: string, id?: number) =>
  api.get('/api/v1/company/check', {
    query: id === undefined ? { name: name.trim() } : { name: name.trim(), id },
    handledCodes: [ErrorCode.CompanyNameTaken],
  });

/**
 * Whether an account exists (GET /company/user/check answers 104 when it does); null when
 * there is no answer (the submit decides then).
 */
export async function accountTaken(account: string): Promise<boolean | null> {
  try {
    await api.get('/api/v1/company/user/check', {
      query: { account: account.trim() },
      handledCodes: [ErrorCode.AccountExists],
      silent: true,
    });
    return false;
  } catch (e) {
    return isApiError(e, ErrorCode.AccountExists) ? true : null;
  }
}

/** The refusals of POST /company/add shown at a field. */
const ADD_REFUSALS: readonly number[] = [
  ErrorCode.CompanyNameTaken,
  ErrorCode.OtherCompany,
  ErrorCode.InvalidParameter,
];

/**
 * The body of POST /company/add: trimmed fields; for an existing account no password nor
 * nickname (the server keeps the account's own).
 */
export function newCompanyBody(v: NewCompany, existing: boolean): NewCompany {
  return {
    name: v.name.trim(),
    contactName: v.contactName.trim(),
    email: v.email.trim(),
    phone: v.phone.trim(),
    address: v.address.trim(),
    remark: v.remark.trim(),
    adminAccount: v.adminAccount.trim(),
    adminPassword: existing ? '' : v.adminPassword,
    adminNickname: existing ? '' : v.adminNickname.trim(),
  };
}

export const addCompany = (body: NewCompany) =>
  api.post('/api/v1/company/add', {
    body: body satisfies Schemas['NewCompanyRequest'],
    handledCodes: ADD_REFUSALS,
  });

export const editCompany = (id: number, body: CompanyFields) =>
  api.post('/api/v1/company/{id}/edit', {
    path: { id },
    body: body satisfies Schemas['CompanyEdit'],
    handledCodes: [ErrorCode.CompanyNameTaken, ErrorCode.InvalidParameter],
  });

export const setCompanyDisabled = (id: number, disabled: boolean) =>
  api.post('/api/v1/company/{id}/disable', {
    path: { id },
    body: {
      disabled,
    } satisfies Schemas['DisableRequest'],
  });

/** What a parameter refusal (4) names ("Parameter validation error: email"), else null. */
export function refusalField(error: unknown): string | null {
  if (!isApiError(error, ErrorCode.InvalidParameter)) return null;
  return /:\s*([A-Za-z][\w.]*)\s*$/.exec(error.message)?.[1] ?? null;
}

/** The form fields of the company dialog. */
export type CompanyFormField = keyof NewCompany;

const FIELDS: readonly CompanyFormField[] = [
  'name',
  'contactName',
  'email',
  'phone',
  'address',
  'remark',
  'adminAccount',
  'adminPassword',
  'adminNickname',
];

/**
 * Where a refused save points: 203 at the name, 106 at the administrator account, 4 at the
 * field it names (an existing-account choice for an account that does not exist asks for a
 * password: shown at the account as "not registered"). null when it points nowhere.
 */
export function companyRefusal(
  error: unknown,
  existing: boolean,
): { field: CompanyFormField; key: string } | null {
  if (isApiError(error, ErrorCode.CompanyNameTaken))
    return { field: 'name', key: 'companies.refusal.nameTaken' };
  if (isApiError(error, ErrorCode.OtherCompany))
    return { field: 'adminAccount', key: 'companies.refusal.otherCompany' };
  const field = refusalField(error);
  if (field === 'adminPassword' && existing)
    return { field: 'adminAccount', key: 'companies.refusal.notRegistered' };
  const known = FIELDS.find((f) => f === field);
  return known ? { field: known, key: 'companies.refusal.invalid' } : null;
}
