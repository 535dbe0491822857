import { queryOptions, useQuery } from '@tanstack/react-query';
import { permissionKeys } from '../api/keys';
import { api } from '../api/client';
import { currentLanguage } from '../i18n';
import { collectPermissions, NO_PERMISSIONS, type Permissions } from './tree';

export * from './tree';

export const permissionQuery = (lan: string = currentLanguage()) =>
  queryOptions({
    queryKey: permissionKeys.tree(lan),
    queryFn: async () => collectPermissions(await api.get('/api/v1/permission', { lan })),
    staleTime: 5 * 60_000,
  });

/** The signed-in user's permissions (empty while loading). */
export function usePermissions(): Permissions {
  return useQuery(permissionQuery()).data ?? NO_PERMISSIONS;
}

/** The button-visibility rule: true when the user holds the button permission. */
export function useCan(permission: string): boolean {
  const p = usePermissions();
  return p.buttons.has(permission) || p.routes.has(permission);
}
