import { queryOptions, useQuery } from '@tanstack/react-query';
import { permissionKeys } from '../api/keys';
import { http } from '../http';
import { currentLanguage } from '../i18n';
import { collectPermissions, NO_PERMISSIONS, type PermissionNode, type Permissions } from './tree';

export * from './tree';

export const permissionQuery = (lan: string = currentLanguage()) =>
  queryOptions({
    queryKey: permissionKeys.tree(lan),
    queryFn: async () =>
      collectPermissions(await http.get<PermissionNode>('/api/v1/permission', { params: { lan } })),
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
