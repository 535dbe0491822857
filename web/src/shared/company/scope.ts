import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../user';

/**
 * The company a company-scoped screen is about: the caller's own (undefined: the server knows
 * it), or the one an internal administrator, who belongs to none, names with `?companyId=`.
 */
export type Scope = number | undefined;

/** A positive whole number of the URL, else undefined. */
export function askedCompany(raw: string | null): number | undefined {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** Query parameters or a JSON body with `companyId` added when the scope names a company. */
export function withCompany<T extends object = Record<string, never>>(
  scope: Scope,
  params?: T,
): T & { companyId?: number } {
  const base = params ?? ({} as T);
  return scope === undefined ? base : { ...base, companyId: scope };
}

/**
 * A link inside company-scoped screens: it keeps `?companyId=` so an internal administrator
 * stays on the same company.
 */
/** The screens that show one company's data: moving between them keeps `?companyId=`. */
const COMPANY_SCREENS = ['/enterprise/', '/customer/'];

export const isCompanyScreen = (path: string) => COMPANY_SCREENS.some((p) => path.startsWith(p));

export function scopedPath(path: string, scope: Scope): string {
  if (scope === undefined) return path;
  return `${path}${path.includes('?') ? '&' : '?'}companyId=${scope}`;
}

/**
 * The company these screens show: the caller's own. An internal administrator names one with
 * `?companyId=` (the server ignores it from anyone else, so it is read only for them).
 * `none`: the account belongs to no company and the URL names none.
 */
export function useScope(): { scope: Scope; ready: boolean; none: boolean } {
  const [search] = useSearchParams();
  const user = useCurrentUser();
  const internal = user.data?.type === 'internal';
  const scope = internal ? askedCompany(search.get('companyId')) : undefined;
  const none = !!user.data && !user.data.company && scope === undefined;
  return { scope, ready: !!user.data, none };
}
