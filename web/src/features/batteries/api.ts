import { queryOptions } from '@tanstack/react-query';
import { batteryKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { ErrorCode, http } from '@/shared/http';
import { deviceListQueries, deviceSeriesQuery } from '@/shared/devices/api';
import type { DeviceKind } from '@/shared/devices/kind';

export const BATTERY: DeviceKind = {
  ns: 'batteries',
  testId: 'battery',
  route: '/device/battery',
  keys: batteryKeys,
  listUrl: '/api/v1/batteries',
  countsUrl: '/api/v1/batteries/count',
  deviceUrl: '/api/v1/battery',
};

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

const enc = encodeURIComponent;

export const batteryInfoQuery = (sn: string) =>
  queryOptions({
    queryKey: batteryKeys.info(sn),
    queryFn: () =>
      http.get<BatteryInfo>(`/api/v1/battery/${enc(sn)}/info`, {
        handledCodes: [ErrorCode.InverterMissing],
      }),
    retry: false,
  });

export const batteryRealtimeQuery = (sn: string) =>
  queryOptions({
    queryKey: batteryKeys.realtime(sn),
    queryFn: () =>
      http.get<BatteryRealtime>(`/api/v1/battery/${enc(sn)}/realtime`, { silent: true }),
    refetchInterval: 60_000,
  });

export const batteryDayQuery = (sn: string, date: string) =>
  deviceSeriesQuery(BATTERY, sn, 'day', date);

export const batterySlavesQuery = (sn: string) =>
  queryOptions({
    queryKey: batteryKeys.slaves(sn),
    queryFn: () =>
      http.get<Schemas['PackList']>(`/api/v1/batteries/${enc(sn)}/slave`, {
        silent: true,
      }),
  });
