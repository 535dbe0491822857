import { queryOptions } from '@tanstack/react-query';
import { batteryKeys } from '@/shared/api/keys';
import { ErrorCode, http } from '@/shared/http';
import {
  deviceListQueries,
  deviceSeriesQuery,
  type DeviceRowBase,
  type NumText,
} from '@/shared/devices/api';
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

/** An item of GET /api/v1/batteries (and the body of /battery/{sn}/info). */
export interface BatteryRow extends DeviceRowBase {
  devName: string;
  online: boolean;
  model: string;
  parentSn: string | null;
  versions: Record<string, string>;
  createAt: string;
  soc: NumText;
  soh: NumText;
  voltage: NumText;
  current: NumText;
  power: number | null;
  temp: NumText;
  capacity: NumText;
  cycles: number | null;
  packCount: number;
}

export interface BatteryInfo extends BatteryRow {
  capacityRemaining: NumText;
  master: boolean;
  masterSn: string | null;
  /** The server lets this caller delete it (role key and plant access). */
  deletable: boolean;
}

export interface Extreme {
  voltage: string;
  pack: number | null;
  cell: number | null;
}

export interface Cell {
  pack: number | null;
  no: number;
  voltage: string;
  /** °C, when the BMS reports cell temperatures. */
  temp?: NumText;
}

export interface Pack {
  no: number;
  sn: string;
  status: number;
  source: 'pack' | 'device';
  soc: NumText;
  soh: NumText;
  voltage: NumText;
  current: NumText;
  temp: NumText;
  cellVoltMax: NumText;
  cellVoltMin: NumText;
  cycles: number | null;
}

/** GET /api/v1/battery/{sn}/realtime. */
export interface BatteryRealtime {
  sn: string;
  status: number;
  soc: NumText;
  soh: NumText;
  voltage: string;
  current: string;
  power: number;
  tempMax: NumText;
  tempMin: NumText;
  capacity: NumText;
  capacityRemaining: NumText;
  chargeCurrentLimit: NumText;
  dischargeCurrentLimit: NumText;
  cycles: number | null;
  packCount: number;
  alarmWord: number | null;
  faultWord: number | null;
  charging: boolean | null;
  discharging: boolean | null;
  chargeRelay: boolean | null;
  dischargeRelay: boolean | null;
  balancing: boolean | null;
  etodayChg: string;
  etodayDischg: string;
  emonthChg: string;
  emonthDischg: string;
  eyearChg: string;
  eyearDischg: string;
  etotalChg: string;
  etotalDischg: string;
  cellMax: Extreme | null;
  cellMin: Extreme | null;
  cells: Cell[];
  packs: Pack[];
  /** Plant-local time of the values; null before the first report. */
  time: string | null;
  updateAt: string;
  /** The values are past the offline bound: the last known, not live. */
  stale?: boolean;
  /** The plant's zone (UTC without a plant). */
  timezone?: string;
}

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
      http.get<{ total: number; infos: Pack[] }>(`/api/v1/batteries/${enc(sn)}/slave`, {
        silent: true,
      }),
  });
