import type { Schemas } from '@/shared/api/schema';
import { meterKeys } from '@/shared/api/keys';
import { http } from '@/shared/http';
import { deviceListQueries, deviceRealtimeQuery, deviceSeriesQuery } from '@/shared/devices/api';
import type { DeviceKind } from '@/shared/devices/kind';

export const METER: DeviceKind = {
  ns: 'meters',
  testId: 'meter',
  route: '/device/meter',
  keys: meterKeys,
  listUrl: '/api/v1/meters',
  countsUrl: '/api/v1/meter/status/count',
  deviceUrl: '/api/v1/meter',
};

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
export const meterRealtimeQuery = (sn: string) => deviceRealtimeQuery<MeterRealtime>(METER, sn);
export const meterSeriesQuery = (sn: string, span: Span, date: string) =>
  deviceSeriesQuery(METER, sn, span, date);

export const setMasterMeter = (sn: string, master: boolean) =>
  http.post(`${METER.deviceUrl}/${encodeURIComponent(sn)}/master`, { master });
