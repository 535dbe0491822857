import { describe, expect, it } from 'vitest';
import {
  allKeys,
  indexTree,
  normalize,
  partial,
  toggle,
  treeItems,
  type TreeNode,
} from './permissionTree';

const node = (permission: string, type: number, children: TreeNode[] = []): TreeNode => ({
  permission,
  name: permission,
  type,
  children,
});

// the shape GET /api/v1/permission/company answers: one root, menus with buttons under them
const ROOT = node('root', 0, [
  node('station.view', 0, [node('station.create', 0), node('station.edit', 1)]),
  node('equip.view', 0, [
    node('gateway.view', 0, [node('gateway.restart', 1), node('gateway.delete', 1)]),
    node('inverter.view', 0),
  ]),
]);
const items = treeItems(ROOT);
const index = indexTree(items);

describe('the role permission tree', () => {
  it("shows the root's children, buttons marked", () => {
    expect(items.map((i) => i.key)).toEqual(['station.view', 'equip.view']);
    expect(items[0]?.children.map((c) => [c.key, c.isButton])).toEqual([
      ['station.create', false],
      ['station.edit', true],
    ]);
    expect(treeItems(null)).toEqual([]);
  });

  it('ticking a button ticks the screens it belongs to', () => {
    expect(toggle(index, [], 'gateway.restart', true)).toEqual([
      'equip.view',
      'gateway.view',
      'gateway.restart',
    ]);
  });

  it('ticking a screen ticks everything under it', () => {
    expect(toggle(index, [], 'station.view', true)).toEqual([
      'station.view',
      'station.create',
      'station.edit',
    ]);
  });

  it('unticking a screen unticks what is under it and keeps its group', () => {
    const all = allKeys(index);
    expect(toggle(index, all, 'gateway.view', false)).toEqual([
      'station.view',
      'station.create',
      'station.edit',
      'equip.view',
      'inverter.view',
    ]);
  });

  it('keeps only known keys, in the tree order', () => {
    expect(normalize(index, ['inverter.view', 'nope', 'equip.view', 'equip.view'])).toEqual([
      'equip.view',
      'inverter.view',
    ]);
  });

  it('marks ticked permissions with something unticked under them as partial', () => {
    const ticked = toggle(index, [], 'gateway.delete', true);
    expect(partial(index, ticked)).toEqual(['equip.view', 'gateway.view']);
    expect(partial(index, allKeys(index))).toEqual([]);
  });
});
