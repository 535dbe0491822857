import type { Schemas } from '@/shared/api/schema';
import { deviceListQueries, deviceRealtimeQuery, deviceSeriesQuery } from '@/shared/devices/api';
import { weatherKeys } from '@/shared/api/keys';
import type { DeviceKind } from '@/shared/devices/kind';

export const STATION: DeviceKind = {
  ns: 'weather',
  testId: 'weather',
  route: '/device/weather',
  keys: weatherKeys,
  listUrl: '/api/v1/weatherStations',
  countsUrl: '/api/v1/weatherStation/status/count',
  deviceUrl: '/api/v1/weatherStation',
};

/** An item of GET /api/v1/weatherStations; temperatures in °C. */
export type StationRow = Schemas['StationItem'];

/** GET /api/v1/weatherStation/{sn}/realtime. */
export type StationRealtime = Schemas['StationNow'];

export const stationQueries = deviceListQueries<StationRow>(STATION);
export const stationRealtimeQuery = (sn: string) =>
  deviceRealtimeQuery<StationRealtime>(STATION, sn);
export const stationDayQuery = (sn: string, date: string) =>
  deviceSeriesQuery(STATION, sn, 'day', date);
