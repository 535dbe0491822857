import type { Schemas } from '@/shared/api/schema';
import { api } from '@/shared/api/client';
import { combinerKeys } from '@/shared/api/keys';
import { deviceListQueries, deviceRealtimeQuery, deviceSeriesQuery } from '@/shared/devices/api';
import type { DeviceKind } from '@/shared/devices/kind';

export const COMBINER = {
  ns: 'combiner',
  testId: 'combiner',
  route: '/device/combiner',
  keys: combinerKeys,
  list: (query, options) => api.get('/api/v1/combiners', { query, ...options }),
  counts: (options) => api.get('/api/v1/combiner/status/count', options),
  rename: (sn, alias) => api.post('/api/v1/combiner/{sn}/alias', { path: { sn }, body: { alias } }),
  remove: (sn) => api.post('/api/v1/combiner/{sn}/delete', { path: { sn } }),
} satisfies DeviceKind<CombinerRow>;

/** An item of GET /api/v1/combiners. */
export type CombinerRow = Schemas['CombinerItem'];

/** GET /api/v1/combiner/{sn}/realtime. */
export type CombinerRealtime = Schemas['CombinerNow'];

/** One string of a combiner box. */
export type StringNow = Schemas['StringNow'];

export type Span = 'day' | 'month';

export const combinerQueries = deviceListQueries<CombinerRow>(COMBINER);
export const combinerRealtimeQuery = (sn: string) =>
  deviceRealtimeQuery(COMBINER, sn, (sn, options): Promise<CombinerRealtime> =>
    api.get('/api/v1/combiner/{sn}/realtime', { path: { sn }, ...options }),
  );
export const combinerSeriesQuery = (sn: string, span: Span, date: string) =>
  deviceSeriesQuery(COMBINER, `/api/v1/combiner/{sn}/${span}`, sn, date);
