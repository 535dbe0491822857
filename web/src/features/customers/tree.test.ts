import { describe, expect, it } from 'vitest';
import type { CustomerTypeNode, CustomerTypeOption } from './api';
import { countTypes, descendantIds, optionTree, parentIds, tableTree, typeLabel } from './tree';

const node = (
  id: number,
  name: string,
  children: CustomerTypeNode[] = [],
  parentId: number | null = null,
): CustomerTypeNode => ({
  id,
  code: name.toUpperCase(),
  name,
  remark: '',
  parentId,
  customers: 0,
  createAt: '2026-11-20T10:00:00.000+00:00',
  children,
});

const flat: CustomerTypeOption[] = [
  { id: 1, code: 'HOME', name: 'Home', parentId: null },
  { id: 4, code: 'VILLA', name: 'Villa', parentId: 2 }, // before its parent
  { id: 2, code: 'HOUSE', name: 'House', parentId: 1 },
  { id: 3, code: 'BIZ', name: 'Business', parentId: null },
  { id: 5, code: 'LOST', name: 'Lost', parentId: 99 }, // parent not in the list
];

describe('customer type tree', () => {
  it('drops empty children so leaves have no expander', () => {
    const rows = tableTree([node(1, 'home', [node(2, 'house', [], 1)]), node(3, 'biz')]);
    expect(rows[0]?.children?.[0]).not.toHaveProperty('children');
    expect(rows[1]).not.toHaveProperty('children');
    expect(rows[0]?.children?.[0]?.name).toBe('house');
  });

  it('opens every node with children and counts every type', () => {
    const rows = tableTree([
      node(1, 'a', [node(2, 'b', [node(4, 'd', [], 2)], 1)]),
      node(3, 'c', [node(5, 'e', [], 3)]),
      node(6, 'f'),
    ]);
    expect(parentIds(rows)).toEqual([1, 2, 3]);
    expect(countTypes(rows)).toBe(6);
    expect(countTypes([])).toBe(0);
  });

  it('finds a type and everything under it, whatever the list order', () => {
    expect([...descendantIds(flat, 1)].sort()).toEqual([1, 2, 4]);
    expect([...descendantIds(flat, 3)]).toEqual([3]);
  });

  it('builds the picker tree in list order, orphans at the top', () => {
    expect(optionTree(flat)).toEqual([
      {
        value: 1,
        title: 'Home (HOME)',
        children: [
          { value: 2, title: 'House (HOUSE)', children: [{ value: 4, title: 'Villa (VILLA)' }] },
        ],
      },
      { value: 3, title: 'Business (BIZ)' },
      { value: 5, title: 'Lost (LOST)' },
    ]);
  });

  it('leaves the edited type and its subtypes out of its parent choices', () => {
    const tree = optionTree(flat, 2);
    expect(tree[0]).toEqual({ value: 1, title: 'Home (HOME)' });
    expect(JSON.stringify(tree)).not.toMatch(/"value":(2|4)\b/);
    expect(optionTree([])).toEqual([]);
  });

  it('labels a type by name and code', () => {
    expect(typeLabel({ name: 'Home', code: 'H1' })).toBe('Home (H1)');
    expect(typeLabel({ name: 'Home', code: '' })).toBe('Home');
  });
});
