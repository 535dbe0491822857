import type { Schemas } from '@/shared/api/schema';

/** The path segment of each family's device screens (`/device/{segment}/{sn}`). */
const SEGMENT: Record<Schemas['DeviceFamily'], string> = {
  inverter: 'inverter',
  battery: 'battery',
  meter: 'meter',
  weather_station: 'weather',
  combiner: 'combiner',
};

/**
 * The screen of a device, by family (the device screens own these routes); null for a family
 * this version does not know (a newer server's).
 */
export function deviceRoute(family: Schemas['DeviceFamily'] | string, sn: string): string | null {
  const segment = (SEGMENT as Record<string, string | undefined>)[family];
  return segment ? `/device/${segment}/${encodeURIComponent(sn)}` : null;
}
