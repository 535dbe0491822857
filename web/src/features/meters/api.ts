import type { Schemas } from '@/shared/api/schema';
import { meterKeys } from '@/shared/api/keys';
import { api } from '@/shared/api/client';
import { deviceListQueries, deviceRealtimeQuery, deviceSeriesQuery } from '@/shared/devices/api';
import type { DeviceKind } from '@/shared/devices/kind';

export const METER = {
  ns: 'meters',
  testId: 'meter',
  route: '/device/meter',
  keys: meterKeys,
  list: (query, options) => api.get('/api/v1/meters', { query, ...options }),
  counts: (options) => api.get('/api/v1/meter/status/count', options),
  rename: (sn, alias) => api.post('/api/v1/meter/{sn}/alias', { path: { sn }, body: { alias } }),
  remove: (sn) => api.post('/api/v1/meter/{sn}/delete', { path: { sn } }),
} satisfies DeviceKind<MeterRow>;

/** An item of GET /api/v1/meters. */
export type MeterRow = Schemas['MeterItem'];

/** GET /api/v1/meter/{sn}/realtime. */
export type MeterRealtime = Schemas['MeterNow'];

export type Span = 'day' | 'month' | 'year' | 'total';

/** The `date` parameter of a span: YYYY-MM-DD, YYYY-MM, YYYY, or none for the total. */
export function spanDate(span: Span, date: { format(f: string): string }): string {
  if (span === 'day') return date.format('YYYY-MM-DD');
  if (span === 'month') return date.format('YYYY-MM');
  if (span === 'year') return date.format('YYYY');
  return '';
}

export const meterQueries = deviceListQueries<MeterRow>(METER);
export const meterRealtimeQuery = (sn: string) =>
  deviceRealtimeQuery(METER, sn, (sn, options): Promise<MeterRealtime> =>
    api.get('/api/v1/meter/{sn}/realtime', { path: { sn }, ...options }),
  );
export const meterSeriesQuery = (sn: string, span: Span, date: string) =>
  deviceSeriesQuery(METER, `/api/v1/meter/{sn}/${span}`, sn, date);

export const setMasterMeter = (sn: string, master: boolean) =>
  api.post('/api/v1/meter/{sn}/master', { path: { sn }, body: { master } });
