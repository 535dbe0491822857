import { api } from '@/shared/api/client';
import { queryOptions } from '@tanstack/react-query';
import { overviewKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { ErrorCode } from '@/shared/http';
import { LIVE_QUERY } from '@/shared/api/live';

export type { Series } from '@/shared/api/series';

export type Currency = Schemas['DictEntry'];

/** GET /api/v1/plant/{id}/realtime. */
export type Realtime = Schemas['Realtime'];

/** GET /api/v1/plant/energy/{id}/flow. */
export type FlowData = Schemas['FlowAnswer'];

export type Period = 'day' | 'month' | 'year' | 'total';

/** GET /api/v1/plant/energy/{id}/generation/use (kWh today). */
export type GenerationUse = Schemas['GenerationUse'];

/** GET /api/v1/plant/{id}/devices. */
export type PlantDevice = Schemas['PlantDevice'];

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

/** GET /api/v1/plant/{id}/figures: the figures of a span and what each is computed from. */
export type PlantFigures = Schemas['PlantFigures'];
export type Figure = Schemas['Figure'];

/** GET /api/v1/weather. */
export type Weather = Schemas['Weather'];

/** GET /api/v1/plant/{id} (what the overview reads of it). */
export type PlantHead = Schemas['PlantDetail'];

export const plantHeadQuery = (id: number) =>
  queryOptions({
    queryKey: overviewKeys.plant(id),
    queryFn: () =>
      api.get('/api/v1/plant/{id}', {
        path: { id },
        handledCodes: [ErrorCode.PlantMissing],
      }),
    // its status shows in the header
    ...LIVE_QUERY,
  });

export const realtimeQuery = (id: number) =>
  queryOptions({
    queryKey: overviewKeys.realtime(id),
    queryFn: () => api.get('/api/v1/plant/{id}/realtime', { path: { id }, silent: true }),
    ...LIVE_QUERY,
  });

export const flowQuery = (id: number) =>
  queryOptions({
    queryKey: overviewKeys.flow(id),
    queryFn: () => api.get('/api/v1/plant/energy/{id}/flow', { path: { id }, silent: true }),
    ...LIVE_QUERY,
  });

export const generationUseQuery = (id: number) =>
  queryOptions({
    queryKey: overviewKeys.use(id),
    queryFn: () =>
      api.get('/api/v1/plant/energy/{id}/generation/use', { path: { id }, silent: true }),
    ...LIVE_QUERY,
  });

/** Day curves (`date` YYYY-MM-DD), month bars (YYYY-MM), year bars (YYYY) or all years. */
export const energyQuery = (id: number, period: Period, date: string) =>
  queryOptions({
    queryKey: overviewKeys.energy(id, period, date),
    queryFn: () =>
      api.get('/api/v1/plant/energy/{id}/{period}', {
        path: { id, period },
        query: period === 'total' ? {} : { date },
        silent: true,
      }),
  });

export const devicesQuery = (id: number) =>
  queryOptions({
    queryKey: overviewKeys.devices(id),
    queryFn: () => api.get('/api/v1/plant/{id}/devices', { path: { id }, silent: true }),
    ...LIVE_QUERY,
  });

/** Open events of the plant, newest first. */
export const eventsQuery = (id: number) =>
  queryOptions({
    queryKey: overviewKeys.events(id),
    queryFn: () =>
      api.get('/api/v1/plant/{id}/events', {
        path: { id },
        // the document has `status` as text (`open` or 1); the number went as `1` all along
        query: { page: 1, limit: 5, status: '1' },
        silent: true,
      }),
    ...LIVE_QUERY,
  });

export const weatherQuery = (id: number, date: string) =>
  queryOptions({
    queryKey: overviewKeys.weather(id, date),
    queryFn: () =>
      api.get('/api/v1/weather', { query: { stationId: String(id), date }, silent: true }),
    staleTime: 5 * 60_000,
  });

/** The plant figures of a day (`date` YYYY-MM-DD), a month (YYYY-MM) or a year (YYYY). */
export const figuresQuery = (id: number, date: string) =>
  queryOptions({
    queryKey: overviewKeys.figures(id, date),
    queryFn: () =>
      api.get('/api/v1/plant/{id}/figures', { path: { id }, query: { date }, silent: true }),
    staleTime: 60_000,
  });
