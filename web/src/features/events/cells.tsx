import { Link } from 'react-router';
import { MISSING } from '@/shared/format/number';

const DEVICE_PATHS: Record<string, string> = {
  inverter: 'inverter',
  battery: 'battery',
  meter: 'meter',
  weather_station: 'weather',
};

/** A device's SN, linked to its screen when its kind has one. */
export function DeviceLink({ sn, deviceType }: { sn: string | null; deviceType: string | null }) {
  if (!sn) return <>{MISSING}</>;
  const segment = deviceType ? DEVICE_PATHS[deviceType] : undefined;
  return segment ? (
    <Link to={`/device/${segment}/${encodeURIComponent(sn)}`}>{sn}</Link>
  ) : (
    <>{sn}</>
  );
}
