import { describe, expect, it } from 'vitest';
import { defaults } from '@/shared/list/params';
import { statusOf, SWITCHED_OFF } from '@/shared/ui/status';
import { listParams, PLANT_FILTERS } from './api';
import { markerBounds, parseCoordinate, pickedPoint, statusKey, toMarkers } from './mapData';

const DEFAULT_QUERY = defaults(PLANT_FILTERS, 10);

const plant = (over: Record<string, unknown>) => ({
  id: 1,
  name: 'Roof',
  lon: 2.35,
  lat: 48.85,
  status: 1,
  type: 1,
  totalPower: 10,
  address: 'Paris',
  thumbUrl: '',
  switchedOff: false,
  ...over,
});

describe('map markers', () => {
  it('maps plants to markers at [lat, lon] with their status key', () => {
    expect(toMarkers([plant({})])).toEqual([
      {
        id: 1,
        name: 'Roof',
        position: [48.85, 2.35],
        status: 1,
        statusKey: 'normal',
        color: statusOf(1).color,
        type: 1,
        totalPower: 10,
        address: 'Paris',
      },
    ]);
  });
  it('shows a plant whose fresh inverters are all switched off as Off, as the list does', () => {
    const [off] = toMarkers([plant({ switchedOff: true })]);
    expect(off).toMatchObject({ status: 1, statusKey: 'off', color: SWITCHED_OFF.color });
    const [fault] = toMarkers([plant({ status: 3, switchedOff: true })]);
    expect(fault?.statusKey).toBe('fault');
  });
  it('leaves out plants without a usable position', () => {
    const plants = [
      plant({ id: 1, lat: null }),
      plant({ id: 2, lon: 200 }),
      plant({ id: 3, lat: 0, lon: 0 }),
      plant({ id: 4, lat: '40.1', lon: '-3.2', address: null }),
    ];
    const markers = toMarkers(plants as never);
    expect(markers.map((m) => m.id)).toEqual([4]);
    expect(markers[0]?.position).toEqual([40.1, -3.2]);
    expect(markers[0]?.address).toBe('');
  });
  it('names statuses, unknown ones as offline', () => {
    expect([0, 1, 2, 3, 4, 9].map(statusKey)).toEqual([
      'offline',
      'normal',
      'warning',
      'fault',
      'upgrading',
      'offline',
    ]);
  });
  it('computes the bounds around markers', () => {
    const markers = toMarkers([plant({ id: 1 }), plant({ id: 2, lat: 40, lon: -3 })]);
    expect(markerBounds(markers)).toEqual([
      [40, -3],
      [48.85, 2.35],
    ]);
    expect(markerBounds([])).toBeNull();
  });
  it('parses typed coordinates and rounds picked points', () => {
    expect(parseCoordinate('48.8566', 90)).toBe(48.8566);
    expect(parseCoordinate('91', 90)).toBeNull();
    expect(parseCoordinate('abc', 180)).toBeNull();
    expect(parseCoordinate('-179.5', 180)).toBe(-179.5);
    expect(pickedPoint(48.123456789, 362.5)).toEqual({ lat: 48.123457, lon: 2.5 });
  });
});

describe('list query', () => {
  it('sends paging, filters and sorting', () => {
    expect(listParams({ ...DEFAULT_QUERY, name: ' roof ', status: 2, page: 3 })).toEqual({
      page: 3,
      limit: 10,
      name: 'roof',
      status: 2,
      type: -1,
      sort: 'createAt',
      order: 'desc',
    });
  });
  it('clamps the page size to 100 and leaves paging out for the map', () => {
    expect(listParams({ ...DEFAULT_QUERY, limit: 500 }).limit).toBe(100);
    expect(listParams({ ...DEFAULT_QUERY, page: 0 }).page).toBe(1);
    expect(listParams(DEFAULT_QUERY, false)).not.toHaveProperty('page');
  });
});
