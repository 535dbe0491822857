import {
  deviceListQueries,
  deviceRealtimeQuery,
  deviceSeriesQuery,
  type DeviceRowBase,
  type NumText,
} from '@/shared/devices/api';
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
export interface StationRow extends DeviceRowBase {
  model: string;
  irradiance: NumText;
  moduleTemp: NumText;
  ambientTemp: NumText;
}

/** GET /api/v1/weatherStation/{sn}/realtime. */
export interface StationRealtime extends StationRow {
  editable: boolean;
  humidity: NumText;
  windSpeed: NumText;
  windDirection: NumText;
  pressure: NumText;
  todayIrradiation: NumText;
  rainfall: NumText;
  /** Plant-local time of the values; null before the first report. */
  time: string | null;
  /** The values are past the offline bound: the last known, not live. */
  stale?: boolean;
  /** The plant's zone (UTC without a plant). */
  timezone?: string;
}

export const stationQueries = deviceListQueries<StationRow>(STATION);
export const stationRealtimeQuery = (sn: string) =>
  deviceRealtimeQuery<StationRealtime>(STATION, sn);
export const stationDayQuery = (sn: string, date: string) =>
  deviceSeriesQuery(STATION, sn, 'day', date);
