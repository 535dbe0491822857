import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { defaults } from '@/shared/list/params';
import { FLEET_FILTERS, fleetParams, openEventsHref, overviewHref, plantListHref } from './api';
import { elapsed, formatYield } from './format';

const ANY = defaults(FLEET_FILTERS, 10);

describe('fleet links and parameters', () => {
  it("asks for the plant list's filters and the period, leaving out 'any'", () => {
    expect(fleetParams(ANY)).toEqual({ period: 'today' });
    expect(
      fleetParams({ ...ANY, status: 0, type: 2, agentCompanyId: 7, customerId: 9, period: '30d' }),
    ).toEqual({ status: 0, type: 2, agentCompanyId: 7, customerId: 9, period: '30d' });
  });

  it('opens the plant list with the same filters, narrowed to a status', () => {
    expect(plantListHref(ANY)).toBe('/plants');
    expect(plantListHref({ ...ANY, customerId: 9 }, 2)).toBe('/plants?customerId=9&status=2');
    // a tile's status replaces the dashboard's own status filter
    expect(plantListHref({ ...ANY, status: 1 }, 0)).toBe('/plants?status=0');
    // the period is the ranking's, not the plant list's
    expect(plantListHref({ ...ANY, period: '7d' })).toBe('/plants');
  });

  it('opens a plant and the open events', () => {
    expect(overviewHref(3, 2)).toBe('/plants/overview/3/2');
    expect(openEventsHref()).toBe('/device/event?status=open');
    expect(openEventsHref(3)).toBe('/device/event?plantId=3&status=open');
  });
});

describe('fleet formats', () => {
  // the key and its values: which text, with what
  const t = ((key: string, values: Record<string, number>) =>
    `${key.split('.').pop()} ${Object.values(values).join(' ')}`) as unknown as TFunction;
  const now = Date.parse('2026-06-21T10:00:00Z');

  it('tells how long ago in minutes, hours or days', () => {
    expect(elapsed('2026-06-21T09:15:00Z', now, t)).toBe('minutes 45');
    expect(elapsed('2026-06-21T06:40:00Z', now, t)).toBe('hours 3 20');
    expect(elapsed('2026-06-19T06:00:00Z', now, t)).toBe('days 2 4');
    expect(elapsed(null, now, t)).toBe('--');
    expect(elapsed('not a time', now, t)).toBe('--');
  });

  it('shows a yield with two decimals and -- without one, never 0', () => {
    expect(formatYield(4.4)).toBe('4.40');
    expect(formatYield(0)).toBe('0.00');
    expect(formatYield(null)).toBe('--');
  });
});
