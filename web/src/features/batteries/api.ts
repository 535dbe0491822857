import { queryOptions } from '@tanstack/react-query';
import { batteryKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { api } from '@/shared/api/client';
import { ErrorCode } from '@/shared/http';
import { deviceListQueries, deviceSeriesQuery } from '@/shared/devices/api';
import type { DeviceKind } from '@/shared/devices/kind';
import { LIVE_QUERY } from '@/shared/api/live';

export const BATTERY = {
  ns: 'batteries',
  testId: 'battery',
  route: '/device/battery',
  keys: batteryKeys,
  list: (query, options) => api.get('/api/v1/batteries', { query, ...options }),
  counts: (options) => api.get('/api/v1/batteries/count', options),
  remove: (sn) => api.post('/api/v1/battery/{id}/delete', { path: { id: sn } }),
} satisfies DeviceKind<BatteryRow>;

/** An item of GET /api/v1/batteries. */
export type BatteryRow = Schemas['BatteryItem'];

/** GET /api/v1/battery/{sn}/info. */
export type BatteryInfo = Schemas['BatteryInfo'];

/** Where the highest or lowest cell voltage is. */
export type Extreme = Schemas['ExtremeItem'];

/** One cell of the grid; `temp` (°C) when the BMS reports cell temperatures. */
export type Cell = Schemas['CellItem'];

/** A pack of a stack (GET /api/v1/batteries/{id}/slave, and the realtime's `packs`). */
export type Pack = Schemas['PackItem'];

/** GET /api/v1/battery/{sn}/realtime. */
export type BatteryRealtime = Schemas['BatteryNow'];

export const batteryQueries = deviceListQueries<BatteryRow>(BATTERY);

export const batteryInfoQuery = (sn: string) =>
  queryOptions({
    queryKey: batteryKeys.info(sn),
    queryFn: () =>
      api.get('/api/v1/battery/{sn}/info', {
        path: { sn },
        handledCodes: [ErrorCode.InverterMissing],
      }),
    retry: false,
    ...LIVE_QUERY,
  });

export const batteryRealtimeQuery = (sn: string) =>
  queryOptions({
    queryKey: batteryKeys.realtime(sn),
    queryFn: () => api.get('/api/v1/battery/{sn}/realtime', { path: { sn }, silent: true }),
    ...LIVE_QUERY,
  });

export const batteryDayQuery = (sn: string, date: string) =>
  deviceSeriesQuery(BATTERY, '/api/v1/battery/{sn}/day', sn, date);

export const batterySlavesQuery = (sn: string) =>
  queryOptions({
    queryKey: batteryKeys.slaves(sn),
    queryFn: () => api.get('/api/v1/batteries/{id}/slave', { path: { id: sn }, silent: true }),
  });
