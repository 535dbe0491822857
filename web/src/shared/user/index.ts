import type { TFunction } from 'i18next';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { userKeys } from '../api/keys';
import type { Schemas } from '../api/schema';
import { api } from '../api/client';
import { http } from '../http';
import { rememberUser, setSignInNotice, tokenStore } from '../session';

/** The signed-in user's company (branding). */
export type Company = Schemas['MyCompany'];

/** GET /api/v1/user. */
export type CurrentUser = Schemas['Me'];

export const userQuery = queryOptions({
  queryKey: userKeys.all,
  queryFn: async () => {
    const user = await api.get('/api/v1/user');
    rememberUser({ id: user.id, companyId: user.company?.id ?? null });
    return user;
  },
  staleTime: 60_000,
});

export function useCurrentUser() {
  return useQuery(userQuery);
}

/** What to call the user: nickname, else name, else the account. */
export function displayName(
  user: Pick<CurrentUser, 'nickname' | 'name' | 'email' | 'mobile'>,
): string {
  return user.nickname || user.name || user.email || user.mobile || '';
}

/**
 * Sign out: this device stops receiving the user's pushes, the refresh token is revoked, stored
 * data and the service worker's copies are cleared, then /login (docs/overview.md, docs/pwa.md).
 */
export async function signOut(notice?: string): Promise<void> {
  const tokens = tokenStore.get();
  // the installed app's side of this browser (its chunk is loaded already where it matters)
  const device =
    'serviceWorker' in navigator ? await import('../pwa/device').catch(() => null) : null;
  if (tokens) {
    await device?.forgetThisDevice((id) =>
      http.post(`/api/v1/user/pushSubscriptions/${id}/delete`, undefined, {
        silent: true,
        noRefresh: true,
      }),
    );
    try {
      await api.post('/api/v1/user/logout', {
        body: { refresh_token: tokens.refresh_token },
        silent: true,
        noRefresh: true,
      });
    } catch {
      // signing out locally is what matters
    }
  }
  tokenStore.clear();
  await device?.clearDataCaches().catch(() => undefined);
  if (notice) setSignInNotice(notice);
  window.location.assign('/login');
}

const BUILTIN_ROLES = ['internal-admin', 'company-admin', 'company-staff', 'owner'];

/** The role to show: built-in roles translated, custom role names as they are, else the type. */
export function roleLabel(user: Pick<CurrentUser, 'roleName' | 'type'>, t: TFunction): string {
  if (user.roleName && BUILTIN_ROLES.includes(user.roleName)) return t(`role.${user.roleName}`);
  if (user.roleName) return user.roleName;
  return t(`userType.${user.type}`, { defaultValue: user.type });
}
