import { describe, expect, it } from 'vitest';
import { collectPermissions, type PermissionNode } from './tree';

const node = (
  permission: string,
  type: number,
  children: PermissionNode[] = [],
): PermissionNode => ({
  id: Math.floor(Math.random() * 1e6),
  name: permission,
  permission,
  type,
  children,
});

describe('collectPermissions', () => {
  it('separates menu routes from buttons and files buttons under their route', () => {
    // the server's one root node: `root`, a menu route held by everyone
    const tree = node('root', 0, [
      node('station.view', 0, [
        node('station.create', 0),
        node('station.edit', 1),
        node('station.delete', 1),
      ]),
      node('equip.view', 0, [node('inverter.view', 0, [node('inverter.setting', 1)])]),
    ]);
    const p = collectPermissions(tree);
    expect([...p.routes].sort()).toEqual([
      'equip.view',
      'inverter.view',
      'root',
      'station.create',
      'station.view',
    ]);
    expect([...p.buttons].sort()).toEqual(['inverter.setting', 'station.delete', 'station.edit']);
    expect([...(p.buttonsByRoute.get('station.view') ?? [])].sort()).toEqual([
      'station.delete',
      'station.edit',
    ]);
    expect([...(p.buttonsByRoute.get('inverter.view') ?? [])]).toEqual(['inverter.setting']);
  });

  it('accepts an empty answer, a list of roots and missing children', () => {
    expect(collectPermissions(null).routes.size).toBe(0);
    const p = collectPermissions([{ permission: 'event.view', type: 0, children: null }]);
    expect([...p.routes]).toEqual(['event.view']);
  });
});
