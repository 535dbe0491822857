import type { Schemas } from '../api/schema';

/** One node of GET /api/v1/permission (type 0 = menu route, 1 = button). */
export type PermissionNode = Schemas['PermissionNode'];

/** What `collectPermissions` reads of a node: the server's nodes, or ones built by hand. */
export interface PermissionInput {
  permission: string | null;
  type: number;
  children?: readonly PermissionInput[] | null;
}

export interface Permissions {
  /** Menu route keys the user may open. */
  routes: ReadonlySet<string>;
  /** Button permissions, whatever route they hang under. */
  buttons: ReadonlySet<string>;
  /** Button permissions per menu route key. */
  buttonsByRoute: ReadonlyMap<string, ReadonlySet<string>>;
}

export const NO_PERMISSIONS: Permissions = {
  routes: new Set(),
  buttons: new Set(),
  buttonsByRoute: new Map(),
};

/** Flattens the tree (or a list of roots) into route and button sets. */
export function collectPermissions(
  root: PermissionInput | readonly PermissionInput[] | null | undefined,
): Permissions {
  const routes = new Set<string>();
  const buttons = new Set<string>();
  const buttonsByRoute = new Map<string, Set<string>>();
  const walk = (node: PermissionInput, route: string | null) => {
    let here = route;
    if (node.permission) {
      if (node.type === 0) {
        routes.add(node.permission);
        here = node.permission;
      } else {
        buttons.add(node.permission);
        if (route) {
          const set = buttonsByRoute.get(route) ?? new Set<string>();
          set.add(node.permission);
          buttonsByRoute.set(route, set);
        }
      }
    }
    for (const child of node.children ?? []) walk(child, here);
  };
  for (const node of Array.isArray(root) ? root : root ? [root] : []) walk(node, null);
  return { routes, buttons, buttonsByRoute };
}
