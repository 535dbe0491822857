import type { DeviceKeys } from '@/shared/api/keys';

/**
 * What tells one device screen (meters, weather stations, batteries) from another: the locale
 * namespace, the test ids, the route and the API paths. Everything else is shared.
 */
export interface DeviceKind {
  /** Locale namespace: `meters.title`, `meters.column.sn`, … */
  ns: string;
  /** Prefix of the data-testid attributes: `meter-table`, `meter-count-total`, … */
  testId: string;
  /** The list screen; the detail screen is `${route}/{sn}`. */
  route: string;
  /** Its query keys (`shared/api/keys`); mutations invalidate everything under `keys.all`. */
  keys: DeviceKeys;
  /** The paged list (GET). */
  listUrl: string;
  /** The status counts (GET). */
  countsUrl: string;
  /** One device: `${deviceUrl}/{sn}/alias`, `${deviceUrl}/{sn}/delete`, … */
  deviceUrl: string;
}
