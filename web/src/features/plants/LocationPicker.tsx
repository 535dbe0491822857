import { MapContainer, Marker, useMap, useMapEvents } from 'react-leaflet';
import { useEffect } from 'react';
import { StatusCode, statusOf } from '@/shared/ui/status';
import { DEFAULT_CENTER, dotIcon } from './leaflet';
import { pickedPoint } from './mapData';
import { Tiles } from './Tiles';

function ClickToPick({ onPick }: { onPick: (p: { lat: number; lon: number }) => void }) {
  useMapEvents({
    click: (e) => onPick(pickedPoint(e.latlng.lat, e.latlng.lng)),
  });
  return null;
}

function Follow({ point }: { point: [number, number] | null }) {
  const map = useMap();
  useEffect(() => {
    if (point) map.panTo(point);
  }, [map, point]);
  return null;
}

/** A map to pick the plant's position by clicking; the marker shows the current position. */
export default function LocationPicker({
  point,
  onPick,
  label,
}: {
  point: [number, number] | null;
  onPick: (p: { lat: number; lon: number }) => void;
  label: string;
}) {
  return (
    <div className="location-picker" data-testid="location-picker" aria-label={label}>
      <MapContainer
        center={point ?? DEFAULT_CENTER}
        zoom={point ? 10 : 2}
        minZoom={2}
        style={{ height: '100%' }}
      >
        <Tiles attribution="&copy; OpenStreetMap" />
        <ClickToPick onPick={onPick} />
        <Follow point={point} />
        {point && (
          <Marker position={point} icon={dotIcon(statusOf(StatusCode.normal).color, label)} />
        )}
      </MapContainer>
    </div>
  );
}
