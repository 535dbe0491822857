import type { ComponentType, ReactNode } from 'react';

/** A menu group (a parent route such as /device); shown when it has a visible child. */
export interface MenuGroup {
  key: string;
  labelKey: string;
  icon?: ReactNode;
  /** Route key of the group itself (e.g. equip.view); optional. */
  permission?: string;
}

/**
 * One screen of the route registry. Features add entries; the menu and the routes come from
 * the entries the permission tree allows.
 */
export interface RouteEntry {
  /** Absolute path; may contain :params (such entries are never in the menu). */
  path: string;
  /** Menu route key (docs/permissions.md); none = every signed-in user. */
  permission?: string;
  labelKey: string;
  icon?: ReactNode;
  element: ComponentType;
  hideInMenu?: boolean;
  /** Keep the page mounted (hidden) when the user leaves it. */
  keepAlive?: boolean;
  group?: string;
}

export interface MenuNode {
  key: string;
  labelKey: string;
  icon?: ReactNode;
  children?: MenuNode[];
}

export function isAllowed(entry: { permission?: string }, routes: ReadonlySet<string>): boolean {
  return !entry.permission || routes.has(entry.permission);
}

/** The menu: allowed, non-hidden entries in registry order, grouped; empty groups dropped. */
export function buildMenu(
  entries: readonly RouteEntry[],
  groups: readonly MenuGroup[],
  routes: ReadonlySet<string>,
): MenuNode[] {
  const menu: MenuNode[] = [];
  const groupNodes = new Map<string, MenuNode>();
  for (const entry of entries) {
    if (entry.hideInMenu || entry.path.includes(':') || !isAllowed(entry, routes)) continue;
    const item: MenuNode = { key: entry.path, labelKey: entry.labelKey, icon: entry.icon };
    const group = entry.group ? groups.find((g) => g.key === entry.group) : undefined;
    if (!group) {
      menu.push(item);
      continue;
    }
    if (!isAllowed(group, routes)) continue;
    let node = groupNodes.get(group.key);
    if (!node) {
      node = { key: group.key, labelKey: group.labelKey, icon: group.icon, children: [] };
      groupNodes.set(group.key, node);
      menu.push(node);
    }
    node.children?.push({ ...item, icon: undefined });
  }
  return menu;
}

/**
 * Path highlighting (docs/overview.md): overview, edit, add and setting pages highlight the
 * plants item; device setting highlights the inverter item; report info the report item.
 */
export const HIGHLIGHT_RULES: readonly { pattern: RegExp; target: string }[] = [
  { pattern: /^\/plants\/(overview|edit|device\/setting)(\/|$)/, target: '/plants' },
  { pattern: /^\/plant-add(\/|$)/, target: '/plants' },
  { pattern: /^\/device\/setting(\/|$)/, target: '/device/inverter' },
  { pattern: /^\/workdata\/info(\/|$)/, target: '/workdata/list' },
];

function leafKeys(menu: readonly MenuNode[]): string[] {
  return menu.flatMap((n) => (n.children ? leafKeys(n.children) : [n.key]));
}

/** The menu item to highlight for a path: a rule's target, else the longest matching prefix. */
export function selectedMenuKey(pathname: string, menu: readonly MenuNode[]): string | undefined {
  const keys = leafKeys(menu);
  const rule = HIGHLIGHT_RULES.find((r) => r.pattern.test(pathname));
  const path = rule?.target ?? pathname;
  if (keys.includes(path)) return path;
  const prefixes = keys.filter((k) => k !== '/' && (path === k || path.startsWith(`${k}/`)));
  return (
    prefixes.sort((a, b) => b.length - a.length)[0] ??
    (path === '/' && keys.includes('/') ? '/' : undefined)
  );
}

/** The group holding a menu key (for the accordion's open group). */
export function groupOf(key: string | undefined, menu: readonly MenuNode[]): string | undefined {
  if (!key) return undefined;
  return menu.find((n) => n.children?.some((c) => c.key === key))?.key;
}
