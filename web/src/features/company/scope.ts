import { useSearchParams } from 'react-router';
import { useCurrentUser } from '@/shared/user';
import type { Scope } from './api';

/** A positive whole number of the URL, else undefined. */
export function askedCompany(raw: string | null): number | undefined {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * The company these screens show: the caller's own. An internal administrator, who belongs to
 * none, names one with `?companyId=` (the server ignores it from anyone else).
 */
export function useScope(): { scope: Scope; ready: boolean; none: boolean } {
  const [search] = useSearchParams();
  const user = useCurrentUser();
  const internal = user.data?.type === 'internal';
  const scope = internal ? askedCompany(search.get('companyId')) : undefined;
  const none = !!user.data && !user.data.company && scope === undefined;
  return { scope, ready: !!user.data, none };
}
