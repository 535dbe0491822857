import type { Schemas } from '@/shared/api/schema';
import { combinerKeys } from '@/shared/api/keys';
import { deviceListQueries, deviceRealtimeQuery, deviceSeriesQuery } from '@/shared/devices/api';
import type { DeviceKind } from '@/shared/devices/kind';

export const COMBINER: DeviceKind = {
  ns: 'combiner',
  testId: 'combiner',
  route: '/device/combiner',
  keys: combinerKeys,
  listUrl: '/api/v1/combiners',
  countsUrl: '/api/v1/combiner/status/count',
  deviceUrl: '/api/v1/combiner',
};

/** An item of GET /api/v1/combiners. */
export type CombinerRow = Schemas['CombinerItem'];

/** GET /api/v1/combiner/{sn}/realtime. */
export type CombinerRealtime = Schemas['CombinerNow'];

/** One string of a combiner box. */
export type StringNow = Schemas['StringNow'];

export type Span = 'day' | 'month';

export const combinerQueries = deviceListQueries<CombinerRow>(COMBINER);
export const combinerRealtimeQuery = (sn: string) =>
  deviceRealtimeQuery<CombinerRealtime>(COMBINER, sn);
export const combinerSeriesQuery = (sn: string, span: Span, date: string) =>
  deviceSeriesQuery(COMBINER, sn, span, date);
