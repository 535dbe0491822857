import { plantState } from '@/shared/devices/live';
import { statusOf, type ShownState, type StatusKey } from '@/shared/ui/status';
import type { MapPlant } from './api';

export interface Marker {
  id: number;
  name: string;
  position: [number, number];
  status: number;
  /** What its dot and popup show: its status, or Off (as the plant list, {@link plantState}). */
  statusKey: ShownState['key'];
  color: string;
  type: number;
  totalPower: number | null;
  address: string;
}

/** The status key ('normal', 'offline'...) of a status code; unknown codes read as offline. */
export function statusKey(status: number | null | undefined): StatusKey {
  return statusOf(status).key;
}

const coordinate = (v: unknown, limit: number): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : null;
};

/** Map markers of GET /plants/map: plants without a usable position are left out. */
export function toMarkers(plants: readonly MapPlant[]): Marker[] {
  const markers: Marker[] = [];
  for (const p of plants) {
    const lat = coordinate(p.lat, 90);
    const lon = coordinate(p.lon, 180);
    if (lat === null || lon === null || (lat === 0 && lon === 0)) continue;
    const shown = plantState(p.status, false, p.switchedOff);
    markers.push({
      id: p.id,
      name: p.name,
      position: [lat, lon],
      status: p.status,
      statusKey: shown.key,
      color: shown.color,
      type: p.type,
      totalPower: p.totalPower,
      address: p.address ?? '',
    });
  }
  return markers;
}

/** Bounds [[south, west], [north, east]] around the markers, or null for none. */
export function markerBounds(
  markers: readonly Marker[],
): [[number, number], [number, number]] | null {
  if (markers.length === 0) return null;
  const lats = markers.map((m) => m.position[0]);
  const lons = markers.map((m) => m.position[1]);
  return [
    [Math.min(...lats), Math.min(...lons)],
    [Math.max(...lats), Math.max(...lons)],
  ];
}

/** A typed coordinate: a number within ±limit with at most 6 decimals (else code 10 territory). */
export function parseCoordinate(value: unknown, limit: 90 | 180): number | null {
  const s = String(value ?? '').trim();
  if (!/^-?\d{1,3}(\.\d{1,8})?$/.test(s)) return null;
  return coordinate(s, limit);
}

/** A clicked map point, rounded to 6 decimals (about 10 cm) and wrapped into ±180. */
export function pickedPoint(lat: number, lng: number): { lat: number; lon: number } {
  const wrapped = ((((lng + 180) % 360) + 360) % 360) - 180;
  const round = (n: number) => Math.round(n * 1e6) / 1e6;
  return { lat: round(lat), lon: round(wrapped) };
}
