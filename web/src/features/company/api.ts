import { api } from '@/shared/api/client';
import type { Schemas } from '@/shared/api/schema';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ErrorCode, isApiError } from '@/shared/http';
import { text, type ListQuery } from '@/shared/list/params';
import { withCompany, type Scope } from '@/shared/company';

/** GET /api/v1/company/info: the company's details and its administrator. */
export type CompanyInfo = Schemas['CompanyInfo'];

/** The edit form's values (POST /api/v1/company/{id}/edit sends them trimmed). */
export interface CompanyEdit {
  name: string;
  contactName: string;
  email: string;
  phone: string;
  address: string;
  remark: string;
}

/** A member of the staff (GET /api/v1/company/user/list). */
export type StaffMember = Schemas['StaffMember'];

/** A role staff may be given (GET /api/v1/company/roles/assignable). */
export type AssignableRole = Schemas['AssignableRole'];

/** A custom role of the company (GET /api/v1/company/roles). */
export type CompanyRole = Schemas['CompanyRole'];

/** An agent company (GET /api/v1/agents). */
export type Agent = Schemas['Agent'];

/** The fields of a new staff member (POST /api/v1/company/user/add, multipart). */
export interface NewStaff {
  account: string;
  password: string;
  nickname: string;
  name: string;
  email: string;
  mobile: string;
  roleId: number;
  avatar?: File | null;
}

/** POST /api/v1/user/edit/{id}. */
export type StaffEdit = Schemas['StaffEditRequest'];

/** Query keys of these screens: a change refreshes everything under its prefix. */
export const companyKeys = {
  all: ['enterprise'] as const,
  info: (scope: Scope) => ['enterprise', 'info', scope ?? 0] as const,
  staff: (scope: Scope, params: Record<string, string | number>) =>
    ['enterprise', 'staff', scope ?? 0, params] as const,
  assignable: (scope: Scope, lan: string) => ['enterprise', 'assignable', scope ?? 0, lan] as const,
  roles: (scope: Scope) => ['enterprise', 'roles', scope ?? 0] as const,
  grantable: (lan: string) => ['enterprise', 'grantable', lan] as const,
  agents: (params: Record<string, string | number>) => ['enterprise', 'agents', params] as const,
};

// ---- company --------------------------------------------------------------------------------

export const companyInfoQuery = (scope: Scope) =>
  queryOptions({
    queryKey: companyKeys.info(scope),
    queryFn: () => api.get('/api/v1/company/info', { query: withCompany(scope), silent: true }),
  });

/** The edit form's values as sent: every text trimmed. */
export function companyEditBody(
  values: Partial<Record<keyof CompanyEdit, unknown>>,
): Schemas['CompanyEdit'] & CompanyEdit {
  const s = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  return {
    name: s(values.name),
    contactName: s(values.contactName),
    email: s(values.email),
    phone: s(values.phone),
    address: s(values.address),
    remark: s(values.remark),
  };
}

export const editCompany = (id: number, body: Schemas['CompanyEdit']) =>
  // a taken name is shown on the name field
  api.post('/api/v1/company/{id}/edit', {
    path: { id },
    body,
    handledCodes: [ErrorCode.CompanyNameTaken],
  });

/** Uploads a logo image; answers its URL (saved to the company by `saveLogos`). */
export async function uploadLogo(file: File, scope: Scope): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  if (scope !== undefined) form.append('companyId', String(scope));
  const answer = await api.post('/api/v1/company/uploadLogo', { body: form });
  return answer.url;
}

export const saveLogos = (id: number, body: Schemas['LogoRequest']) =>
  api.post('/api/v1/company/{id}/logo', { path: { id }, body });

export const saveThemeColor = (id: number, themeColor: string) =>
  api.post('/api/v1/company/{id}/themeColor', {
    path: { id },
    body: { themeColor } satisfies Schemas['ThemeRequest'],
  });

// ---- staff ----------------------------------------------------------------------------------

export const STAFF_FILTERS = { name: text() };
export type StaffQuery = ListQuery<typeof STAFF_FILTERS>;

/** The staff list's request parameters: the search only when there is one. */
export function staffParams(q: StaffQuery, scope: Scope): Record<string, string | number> {
  const name = q.name.trim();
  const params: Record<string, string | number> = { page: q.page, limit: q.limit };
  if (name) params.name = name;
  if (scope !== undefined) params.companyId = scope;
  return params;
}

export const staffQuery = (q: StaffQuery, scope: Scope) => {
  const params = staffParams(q, scope);
  return queryOptions({
    queryKey: companyKeys.staff(scope, params),
    queryFn: () => api.get('/api/v1/company/user/list', { query: params, silent: true }),
    placeholderData: keepPreviousData,
  });
};

export const assignableRolesQuery = (scope: Scope, lan: string) =>
  queryOptions({
    queryKey: companyKeys.assignable(scope, lan),
    queryFn: () =>
      api.get('/api/v1/company/roles/assignable', { query: withCompany(scope, { lan }) }),
  });

/** Whether an account is free for a new staff member: false when taken (104). */
export async function accountFree(account: string): Promise<boolean> {
  try {
    await api.get('/api/v1/company/user/check', {
      query: { account: account.trim() },
      handledCodes: [ErrorCode.AccountExists],
    });
    return true;
  } catch (e) {
    if (isApiError(e, ErrorCode.AccountExists)) return false;
    throw e;
  }
}

/** The multipart body of a new staff member; empty optional texts are sent empty. */
export function newStaffForm(staff: NewStaff, scope: Scope): FormData {
  const form = new FormData();
  form.append('account', staff.account.trim());
  form.append('password', staff.password);
  form.append('nickname', staff.nickname.trim());
  form.append('name', (staff.name ?? '').trim());
  form.append('email', (staff.email ?? '').trim());
  form.append('mobile', (staff.mobile ?? '').trim());
  form.append('roleId', String(staff.roleId));
  if (scope !== undefined) form.append('companyId', String(scope));
  if (staff.avatar) form.append('avatar', staff.avatar);
  return form;
}

export const addStaff = (staff: NewStaff, scope: Scope) =>
  api.post('/api/v1/company/user/add', {
    body: newStaffForm(staff, scope),
    handledCodes: [ErrorCode.AccountExists],
  });

export const editStaff = (id: number, body: StaffEdit) =>
  api.post('/api/v1/user/edit/{id}', {
    path: { id },
    body,
    handledCodes: [ErrorCode.OwnRoleLocked],
  });

export const deleteStaff = (id: number) => api.post('/api/v1/user/delete/{id}', { path: { id } });

// ---- roles ----------------------------------------------------------------------------------

/** At most this many custom roles per company (800). */
export const MAX_ROLES = 5;

export const rolesQuery = (scope: Scope) =>
  queryOptions({
    queryKey: companyKeys.roles(scope),
    queryFn: async () =>
      (await api.get('/api/v1/company/roles', { query: withCompany(scope), silent: true })).infos,
  });

/** What the caller may grant (one root node; its children are shown). */
export const grantableQuery = (lan: string) =>
  queryOptions({
    queryKey: companyKeys.grantable(lan),
    queryFn: () => api.get('/api/v1/permission/company', { lan }),
    staleTime: 5 * 60_000,
  });

const ROLE_CODES: readonly number[] = [
  ErrorCode.RoleLimit,
  ErrorCode.RoleExists,
  ErrorCode.OwnRoleLocked,
];

/** Whether a new role may have this name: null when it may, else the refusal's code. */
export async function checkRoleName(name: string, scope: Scope): Promise<number | null> {
  try {
    await api.get('/api/v1/company/role/check', {
      query: withCompany(scope, { name: name.trim() }),
      handledCodes: ROLE_CODES,
    });
    return null;
  } catch (e) {
    if (isApiError(e) && ROLE_CODES.includes(e.code)) return e.code;
    throw e;
  }
}

export interface RoleBody {
  name: string;
  permissions: string[];
}

export const createRole = (body: RoleBody, scope: Scope) =>
  api.post('/api/v1/company/role', {
    body: { name: body.name.trim(), permissions: body.permissions, ...withCompany(scope) },
    handledCodes: ROLE_CODES,
  });

export const updateRole = (id: number, body: RoleBody) =>
  api.post('/api/v1/company/role/{id}', {
    path: { id },
    body: { name: body.name.trim(), permissions: body.permissions },
    handledCodes: ROLE_CODES,
  });

export const deleteRole = (id: number) =>
  api.post('/api/v1/company/role/{id}/delete', {
    path: { id },
    body: undefined,
    handledCodes: ROLE_CODES,
  });

// ---- agents ---------------------------------------------------------------------------------

export const AGENT_FILTERS = { name: text() };
export type AgentQuery = ListQuery<typeof AGENT_FILTERS>;

export function agentParams(q: AgentQuery): Record<string, string | number> {
  const name = q.name.trim();
  return name ? { page: q.page, limit: q.limit, name } : { page: q.page, limit: q.limit };
}

export const agentsQuery = (q: AgentQuery) => {
  const params = agentParams(q);
  return queryOptions({
    queryKey: companyKeys.agents(params),
    queryFn: () => api.get('/api/v1/agents', { query: params, silent: true }),
    placeholderData: keepPreviousData,
  });
};

/** The refusals of /agent/check and POST /agent, shown on the account field. */
export const AGENT_REFUSALS: readonly number[] = [
  ErrorCode.NotRegistered,
  ErrorCode.AgentSelf,
  ErrorCode.AgentInternal,
  ErrorCode.AgentNotAdmin,
  ErrorCode.AgentExists,
  ErrorCode.AgentTaken,
  ErrorCode.InvalidParameter,
];

/** Null when the account may become an agent, else the refusal (code and message). */
export async function checkAgent(
  account: string,
): Promise<{ code: number; message: string } | null> {
  try {
    await api.get('/api/v1/agent/check', {
      query: { account: account.trim() },
      handledCodes: AGENT_REFUSALS,
    });
    return null;
  } catch (e) {
    if (isApiError(e) && AGENT_REFUSALS.includes(e.code)) {
      return { code: e.code, message: e.message };
    }
    throw e;
  }
}

/** Asks the account's company to become an agent (answers the request's id). */
export const addAgent = (account: string, message = '') =>
  api.post('/api/v1/agent', {
    body: { account: account.trim(), message },
    handledCodes: AGENT_REFUSALS,
  });

export const removeAgent = (id: number) => api.post('/api/v1/agent/{id}/delete', { path: { id } });
