import { queryOptions } from '@tanstack/react-query';
import { overviewKeys } from '@/shared/api/keys';
import type { Series } from '@/shared/api/series';
import { ErrorCode, http } from '@/shared/http';

export type { Series } from '@/shared/api/series';

/** Live figures refresh this often (the flow diagram and today's figures). */
export const LIVE_MS = 30_000;

export interface Currency {
  id: number | null;
  code: string;
  text: string;
}

/** GET /api/v1/plant/{id}/realtime. */
export interface Realtime {
  pac: number;
  etoday: number;
  emonth: number;
  eyear: number;
  etotal: number;
  income: number;
  /** Current power over the installed capacity (0..1). */
  efficiency: number;
  /** The newest data of the plant (UTC). */
  updateAt: string;
  /** No device has fresh data: `pac` is 0 and the figures are the last known. */
  stale?: boolean;
  currency: Currency;
  totalPower: number;
}

/** GET /api/v1/plant/energy/{id}/flow (the fields the diagram reads). */
export interface FlowData {
  pvPower: number;
  battPower: number;
  gridOrMeterPower: number;
  loadOrEpsPower: number;
  genPower: number;
  soc: number;
  pvTo: boolean;
  toLoad: boolean;
  toBat: boolean;
  batTo: boolean;
  toGrid: boolean;
  gridTo: boolean;
  genTo: boolean;
  existsGen: boolean;
  existsMeter: boolean;
  existsGrid: boolean;
  existsBattery?: boolean;
  time: string | null;
  /** The newest data (UTC); null before the first report. */
  updateAt?: string | null;
  /** No fresh data: every power reads 0 and nothing flows. */
  stale?: boolean;
}

export type Period = 'day' | 'month' | 'year' | 'total';

/** GET /api/v1/plant/energy/{id}/generation/use (kWh today). */
export interface GenerationUse {
  load: number;
  pv: number;
  batteryCharge: number;
  gridSell: number;
  gridBuy: number;
  batteryDischarge: number;
  generator: number;
}

/** GET /api/v1/plant/{id}/devices. */
export interface PlantDevice {
  id: number;
  sn: string;
  family: 'inverter' | 'battery' | 'meter' | 'weather_station' | string;
  alias: string;
  model: string;
  type: number;
  status: number;
  parentSn: string | null;
  updateAt: string | null;
  /** Its newest data is past its offline bound (or it never reported). */
  stale?: boolean;
  /** Whether an inverter reports itself switched on; null for other devices or unknown. */
  powerOn?: boolean | null;
}

/** An item of GET /api/v1/plant/{id}/events. */
export interface PlantEvent {
  id: number;
  code: string;
  sn: string;
  alias: string | null;
  deviceType: string;
  severity: string;
  status: string;
  occurTime: string;
  /** Devices the occurrence affects (one row for a plant-wide event). */
  deviceCount?: number;
  meaning: string | null;
  solution: string | null;
}

export interface EventPage {
  total: number;
  infos: PlantEvent[];
}

/** GET /api/v1/weather. */
export interface Weather {
  currWea: {
    desc: string | null;
    currTemp: string | null;
    windSpeed: string | null;
    /** Whole degrees from north ("225"). */
    windDirection: string | null;
    sunrise: string | null;
    sunset: string | null;
    iconUrl: string | null;
    tempMinC: string | null;
    tempMaxC: string | null;
  } | null;
  plantId: number | null;
}

/** GET /api/v1/plant/{id} (what the overview reads of it). */
export interface PlantHead {
  id: number;
  name: string;
  type: number;
  status: number;
  totalPower: number;
  address: string | null;
  lon: number;
  lat: number;
  timezone: { code: string; text: string } | null;
  currency: Currency;
  plantPermission: string[];
}

export const plantHeadQuery = (id: number) =>
  queryOptions({
    queryKey: overviewKeys.plant(id),
    queryFn: () =>
      http.get<PlantHead>(`/api/v1/plant/${id}`, {
        params: { id },
        handledCodes: [ErrorCode.PlantMissing],
      }),
  });

export const realtimeQuery = (id: number) =>
  queryOptions({
    queryKey: overviewKeys.realtime(id),
    queryFn: () => http.get<Realtime>(`/api/v1/plant/${id}/realtime`, { silent: true }),
    refetchInterval: LIVE_MS,
  });

export const flowQuery = (id: number) =>
  queryOptions({
    queryKey: overviewKeys.flow(id),
    queryFn: () => http.get<FlowData>(`/api/v1/plant/energy/${id}/flow`, { silent: true }),
    refetchInterval: LIVE_MS,
  });

export const generationUseQuery = (id: number) =>
  queryOptions({
    queryKey: overviewKeys.use(id),
    queryFn: () =>
      http.get<GenerationUse>(`/api/v1/plant/energy/${id}/generation/use`, { silent: true }),
    refetchInterval: LIVE_MS,
  });

/** Day curves (`date` YYYY-MM-DD), month bars (YYYY-MM), year bars (YYYY) or all years. */
export const energyQuery = (id: number, period: Period, date: string) =>
  queryOptions({
    queryKey: overviewKeys.energy(id, period, date),
    queryFn: () =>
      http.get<{ infos: Series[] }>(`/api/v1/plant/energy/${id}/${period}`, {
        params: period === 'total' ? { id } : { id, date },
        silent: true,
      }),
  });

export const devicesQuery = (id: number) =>
  queryOptions({
    queryKey: overviewKeys.devices(id),
    queryFn: () => http.get<PlantDevice[]>(`/api/v1/plant/${id}/devices`, { silent: true }),
    refetchInterval: LIVE_MS,
  });

/** Open events of the plant, newest first. */
export const eventsQuery = (id: number) =>
  queryOptions({
    queryKey: overviewKeys.events(id),
    queryFn: () =>
      http.get<EventPage>(`/api/v1/plant/${id}/events`, {
        params: { page: 1, limit: 5, status: 1 },
        silent: true,
      }),
    refetchInterval: LIVE_MS,
  });

export const weatherQuery = (id: number, date: string) =>
  queryOptions({
    queryKey: overviewKeys.weather(id, date),
    queryFn: () =>
      http.get<Weather>('/api/v1/weather', { params: { stationId: id, date }, silent: true }),
    staleTime: 5 * 60_000,
  });
