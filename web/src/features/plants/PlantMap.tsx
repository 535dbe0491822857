import { Empty, Spin, Tag, Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MapContainer, Marker, Popup, useMap } from 'react-leaflet';
import MarkerClusterGroup from 'react-leaflet-cluster';
import { formatNumber } from '@/shared/format/number';
import type { MapPlant } from './api';
import { DEFAULT_CENTER, dotIcon } from './leaflet';
import { Tiles } from './Tiles';
import { markerBounds, toMarkers, type Marker as PlantMarker } from './mapData';

function FitBounds({ markers }: { markers: readonly PlantMarker[] }) {
  const map = useMap();
  useEffect(() => {
    const bounds = markerBounds(markers);
    if (bounds) map.fitBounds(bounds, { padding: [40, 40], maxZoom: 12 });
  }, [map, markers]);
  return null;
}

/** The plants on a map: clustered CSS markers; a click shows name, status, capacity, a link. */
export default function PlantMap({
  plants,
  loading,
  onOpen,
  onOverview,
}: {
  plants: readonly MapPlant[] | undefined;
  loading: boolean;
  onOpen: (id: number) => void;
  /** Opens the plant's overview (monitoring). */
  onOverview?: (id: number, type: number) => void;
}) {
  const { t } = useTranslation();
  const markers = useMemo(() => toMarkers(plants ?? []), [plants]);
  return (
    <Spin spinning={loading}>
      <div className="plant-map" data-testid="plant-map">
        <MapContainer
          center={DEFAULT_CENTER}
          zoom={2}
          minZoom={2}
          worldCopyJump
          style={{ height: '100%' }}
        >
          <Tiles attribution="&copy; OpenStreetMap contributors" />
          <FitBounds markers={markers} />
          <MarkerClusterGroup chunkedLoading>
            {markers.map((m) => (
              <Marker key={m.id} position={m.position} icon={dotIcon(m.color, m.name, m.id)}>
                <Popup>
                  <div data-testid="map-popup">
                    <Link to={`/plants/overview/${m.id}/${m.type}`} className="plant-name">
                      {m.name}
                    </Link>
                    <div>
                      <Tag color={m.color} data-testid="map-status" data-state={m.statusKey}>
                        {t(`plants.status.${m.statusKey}`)}
                      </Tag>
                      {formatNumber(m.totalPower)} kWp
                    </div>
                    {m.address && <div className="muted-small">{m.address}</div>}
                    <Typography.Link onClick={() => onOpen(m.id)} data-testid="map-open">
                      {t('plants.openPlant')}
                    </Typography.Link>
                    {onOverview && (
                      <Typography.Link
                        onClick={() => onOverview(m.id, m.type)}
                        data-testid="map-overview"
                        style={{ marginLeft: 12 }}
                      >
                        {t('overview.open')}
                      </Typography.Link>
                    )}
                  </div>
                </Popup>
              </Marker>
            ))}
          </MarkerClusterGroup>
        </MapContainer>
        {!loading && markers.length === 0 && (
          <div className="plant-map-empty">
            <Empty description={t('plants.map.noLocations')} />
          </div>
        )}
      </div>
    </Spin>
  );
}
