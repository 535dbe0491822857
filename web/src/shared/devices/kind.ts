import type { AnswerOf, QueryOf, RequestOptions } from '@/shared/api/client';
import type { DeviceKeys } from '@/shared/api/keys';
import type { Page } from '@/shared/http';

/** The query of a device list (every kind's list takes the same parameters). */
export type DeviceListParams = QueryOf<'/api/v1/meters'>;

/**
 * What tells one device screen (meters, weather stations, batteries) from another: the locale
 * namespace, the test ids, the route and the API paths. Everything else is shared.
 */
export interface DeviceKind<Row = unknown> {
  /** Locale namespace: `meters.title`, `meters.column.sn`, … */
  ns: string;
  /** Prefix of the data-testid attributes: `meter-table`, `meter-count-total`, … */
  testId: string;
  /** The list screen; the detail screen is `${route}/{sn}`. */
  route: string;
  /** Its query keys (`shared/api/keys`); mutations invalidate everything under `keys.all`. */
  keys: DeviceKeys;
  /** The paged list. */
  list(query: DeviceListParams, options: RequestOptions): Promise<Page<Row>>;
  /** The status counts. */
  counts(options: RequestOptions): Promise<AnswerOf<'/api/v1/meter/status/count'>>;
  /** Gives a device another name (not every kind has names). */
  rename?(sn: string, alias: string): Promise<void>;
  /** Removes a device from its plant. */
  remove(sn: string): Promise<void>;
}
