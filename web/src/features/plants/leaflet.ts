// Leaflet is loaded only with the plant screens (their chunks import this module).
import 'leaflet/dist/leaflet.css';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.css';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.Default.css';
import L from 'leaflet';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A coloured dot drawn with CSS: no marker images, so markers show with no network at all. */
export function dotIcon(color: string, label: string, id?: number): L.DivIcon {
  return L.divIcon({
    className: 'plant-marker',
    html: `<span class="plant-marker-dot" style="background:${color}" data-testid="plant-marker" data-plant-id="${id ?? ''}" title="${escape(label)}"></span>`,
    iconSize: [20, 20],
    iconAnchor: [10, 10],
    popupAnchor: [0, -10],
  });
}

export const DEFAULT_CENTER: [number, number] = [30, 10];
