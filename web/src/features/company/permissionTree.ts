/**
 * The permission tree of the role dialog, as pure functions. A permission only means something
 * under its parent (a button under its screen, a screen under its menu group), so:
 * ticking a node ticks its ancestors and everything under it; unticking a node unticks
 * everything under it and leaves its ancestors. The keys sent are exactly the ticked ones.
 */

/** What these functions read of a node of GET /api/v1/permission/company. */
export interface TreeNode {
  permission: string;
  name: string;
  type: number;
  children?: readonly TreeNode[] | null;
}

/** The antd Tree's data: the root's children, titles as the server names them. */
export interface TreeItem {
  key: string;
  title: string;
  isButton: boolean;
  children: TreeItem[];
}

export function treeItems(root: TreeNode | null | undefined): TreeItem[] {
  const walk = (n: TreeNode): TreeItem => ({
    key: n.permission,
    title: n.name,
    isButton: n.type === 1,
    children: (n.children ?? []).map(walk),
  });
  return (root?.children ?? []).map(walk);
}

interface Index {
  /** Every key, in the tree's order (depth first). */
  order: string[];
  parent: Map<string, string | null>;
  children: Map<string, string[]>;
}

export function indexTree(items: readonly TreeItem[]): Index {
  const order: string[] = [];
  const parent = new Map<string, string | null>();
  const children = new Map<string, string[]>();
  const walk = (item: TreeItem, up: string | null) => {
    order.push(item.key);
    parent.set(item.key, up);
    children.set(
      item.key,
      item.children.map((c) => c.key),
    );
    item.children.forEach((c) => walk(c, item.key));
  };
  items.forEach((i) => walk(i, null));
  return { order, parent, children };
}

function below(index: Index, key: string): string[] {
  const out: string[] = [];
  const stack = [...(index.children.get(key) ?? [])];
  while (stack.length) {
    const k = stack.pop() as string;
    out.push(k);
    stack.push(...(index.children.get(k) ?? []));
  }
  return out;
}

function above(index: Index, key: string): string[] {
  const out: string[] = [];
  for (let p = index.parent.get(key); p; p = index.parent.get(p)) out.push(p);
  return out;
}

/** Only keys of the tree, in the tree's order, without duplicates. */
export function normalize(index: Index, keys: Iterable<string>): string[] {
  const set = new Set(keys);
  return index.order.filter((k) => set.has(k));
}

/** The ticked keys after (un)ticking `key`. */
export function toggle(
  index: Index,
  ticked: readonly string[],
  key: string,
  on: boolean,
): string[] {
  const set = new Set(ticked);
  if (on) {
    for (const k of [key, ...below(index, key), ...above(index, key)]) set.add(k);
  } else {
    for (const k of [key, ...below(index, key)]) set.delete(k);
  }
  return normalize(index, set);
}

/** Ticks every key, or none. */
export const allKeys = (index: Index): string[] => [...index.order];

/** Half-ticked nodes (for the Tree's display): ticked, with some descendant not ticked. */
export function partial(index: Index, ticked: readonly string[]): string[] {
  const set = new Set(ticked);
  return index.order.filter((k) => set.has(k) && below(index, k).some((d) => !set.has(d)));
}
