import { describe, expect, it } from 'vitest';
import { buildMenu, groupOf, selectedMenuKey, type MenuGroup, type RouteEntry } from './menu';

const Page = () => null;
const entry = (path: string, extra: Partial<RouteEntry> = {}): RouteEntry => ({
  path,
  labelKey: `menu.${path}`,
  element: Page,
  ...extra,
});

const groups: MenuGroup[] = [
  { key: '/device', labelKey: 'menu.device', permission: 'equip.view' },
  { key: '/company', labelKey: 'menu.company' },
];
const registry: RouteEntry[] = [
  entry('/'),
  entry('/plants', { permission: 'station.view' }),
  entry('/plants/overview/:id/:type', { permission: 'station.view' }),
  entry('/edit', { hideInMenu: true }),
  entry('/device/gateway', { permission: 'gateway.view', group: '/device' }),
  entry('/device/inverter', { permission: 'inverter.view', group: '/device' }),
  entry('/company/info', { permission: 'company.info', group: '/company' }),
];

describe('buildMenu', () => {
  it('shows only entries the permission tree allows, in registry order', () => {
    const admin = buildMenu(
      registry,
      groups,
      new Set(['station.view', 'equip.view', 'gateway.view', 'inverter.view', 'company.info']),
    );
    expect(admin.map((n) => n.key)).toEqual(['/', '/plants', '/device', '/company']);
    expect(admin[2]?.children?.map((c) => c.key)).toEqual(['/device/gateway', '/device/inverter']);

    const owner = buildMenu(registry, groups, new Set(['station.view', 'inverter.view']));
    expect(owner.map((n) => n.key)).toEqual(['/', '/plants']);
  });

  it('drops hidden entries, entries with parameters and empty groups', () => {
    const menu = buildMenu(registry, groups, new Set());
    expect(menu.map((n) => n.key)).toEqual(['/']);
  });
});

describe('selectedMenuKey', () => {
  const menu = buildMenu(
    registry,
    groups,
    new Set(['station.view', 'equip.view', 'gateway.view', 'inverter.view']),
  );
  it('highlights the plants item for overview, edit, add and setting pages', () => {
    for (const p of [
      '/plants/overview/3/1',
      '/plants/edit/3',
      '/plant-add',
      '/plants/device/setting',
    ]) {
      expect(selectedMenuKey(p, menu)).toBe('/plants');
    }
  });
  it('highlights the inverter item for the device setting page', () => {
    expect(selectedMenuKey('/device/setting', menu)).toBe('/device/inverter');
    expect(groupOf('/device/inverter', menu)).toBe('/device');
  });
  it('uses the exact item, else the longest prefix, and home only for /', () => {
    expect(selectedMenuKey('/', menu)).toBe('/');
    expect(selectedMenuKey('/device/gateway', menu)).toBe('/device/gateway');
    expect(selectedMenuKey('/device/gateway/12', menu)).toBe('/device/gateway');
    expect(selectedMenuKey('/edit', menu)).toBeUndefined();
  });
});
