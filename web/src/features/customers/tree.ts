import type { CustomerTypeNode, CustomerTypeOption } from './api';

/** A type tree node as the table shows it: no `children` where there are none (no expander). */
export type TypeRow = Omit<CustomerTypeNode, 'children'> & { children?: TypeRow[] };

/** The server's tree for the tree table: leaves lose their empty `children`. */
export function tableTree(nodes: readonly CustomerTypeNode[]): TypeRow[] {
  return nodes.map(({ children, ...node }) =>
    children && children.length > 0 ? { ...node, children: tableTree(children) } : { ...node },
  );
}

/** The ids of every node that has children (to open the whole tree). */
export function parentIds(nodes: readonly TypeRow[]): number[] {
  return nodes.flatMap((n) => (n.children?.length ? [n.id, ...parentIds(n.children)] : []));
}

/** How many types the tree holds. */
export function countTypes(nodes: readonly { children?: readonly unknown[] }[]): number {
  return nodes.reduce(
    (sum, n) => sum + 1 + countTypes((n.children ?? []) as { children?: readonly unknown[] }[]),
    0,
  );
}

/** `id` and every type under it in the flat list. */
export function descendantIds(flat: readonly CustomerTypeOption[], id: number): Set<number> {
  const found = new Set<number>([id]);
  // a parent may come after its children in the list: repeat until nothing is added
  for (let added = true; added;) {
    added = false;
    for (const t of flat) {
      if (t.parentId !== null && found.has(t.parentId) && !found.has(t.id)) {
        found.add(t.id);
        added = true;
      }
    }
  }
  return found;
}

/** A TreeSelect option. */
export interface TypeOption {
  value: number;
  title: string;
  children?: TypeOption[];
}

/**
 * The flat type list as a picker tree, in list order. `exclude` (a type being edited) and its
 * descendants are left out: a type cannot move under itself. A type whose parent is not in the
 * list shows at the top.
 */
export function optionTree(flat: readonly CustomerTypeOption[], exclude?: number): TypeOption[] {
  const skip = exclude === undefined ? new Set<number>() : descendantIds(flat, exclude);
  const kept = flat.filter((t) => !skip.has(t.id));
  const ids = new Set(kept.map((t) => t.id));
  const byParent = new Map<number | null, CustomerTypeOption[]>();
  for (const t of kept) {
    const parent = t.parentId !== null && ids.has(t.parentId) ? t.parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), t]);
  }
  const build = (parent: number | null, seen: Set<number>): TypeOption[] =>
    (byParent.get(parent) ?? [])
      .filter((t) => !seen.has(t.id))
      .map((t) => {
        const children = build(t.id, new Set([...seen, t.id]));
        const option: TypeOption = { value: t.id, title: typeLabel(t) };
        return children.length ? { ...option, children } : option;
      });
  return build(null, new Set());
}

/** "Name (code)". */
export function typeLabel(t: Pick<CustomerTypeOption, 'name' | 'code'>): string {
  return t.code ? `${t.name} (${t.code})` : t.name;
}
