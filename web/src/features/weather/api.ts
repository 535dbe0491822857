import type { Schemas } from '@/shared/api/schema';
import { deviceListQueries, deviceRealtimeQuery, deviceSeriesQuery } from '@/shared/devices/api';
import { api } from '@/shared/api/client';
import { weatherKeys } from '@/shared/api/keys';
import type { DeviceKind } from '@/shared/devices/kind';

export const STATION = {
  ns: 'weather',
  testId: 'weather',
  route: '/device/weather',
  keys: weatherKeys,
  list: (query, options) => api.get('/api/v1/weatherStations', { query, ...options }),
  counts: (options) => api.get('/api/v1/weatherStation/status/count', options),
  rename: (sn, alias) =>
    api.post('/api/v1/weatherStation/{sn}/alias', { path: { sn }, body: { alias } }),
  remove: (sn) => api.post('/api/v1/weatherStation/{sn}/delete', { path: { sn } }),
} satisfies DeviceKind<StationRow>;

/** An item of GET /api/v1/weatherStations; temperatures in °C. */
export type StationRow = Schemas['StationItem'];

/** GET /api/v1/weatherStation/{sn}/realtime. */
export type StationRealtime = Schemas['StationNow'];

export const stationQueries = deviceListQueries<StationRow>(STATION);
export const stationRealtimeQuery = (sn: string) =>
  deviceRealtimeQuery(STATION, sn, (sn, options): Promise<StationRealtime> =>
    api.get('/api/v1/weatherStation/{sn}/realtime', { path: { sn }, ...options }),
  );
export const stationDayQuery = (sn: string, date: string) =>
  deviceSeriesQuery(STATION, '/api/v1/weatherStation/{sn}/day', sn, date);
