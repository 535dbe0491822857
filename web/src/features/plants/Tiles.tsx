import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TileLayer } from 'react-leaflet';
import { useServerConfig } from '@/shared/config';

/**
 * The map's tile layer (PORTAL_MAP_TILE_URL) and, when no tile could be loaded (an offline
 * installation, a blocked tile server), a notice over the map saying so. The markers and the
 * position picking are drawn without tiles and keep working.
 */
export function Tiles({ attribution }: { attribution: string }) {
  const { t } = useTranslation();
  const { config } = useServerConfig();
  const [failed, setFailed] = useState(false);
  const loaded = useRef(false);
  const handlers = useMemo(
    () => ({
      tileload: () => {
        loaded.current = true;
        setFailed(false);
      },
      // one tile of a working server may fail; only "nothing ever loaded" is worth a notice
      tileerror: () => {
        if (!loaded.current) setFailed(true);
      },
    }),
    [],
  );
  if (!config.mapTileUrl) return null;
  return (
    <>
      <TileLayer url={config.mapTileUrl} attribution={attribution} eventHandlers={handlers} />
      {failed && (
        <div className="map-tile-notice" role="status" data-testid="map-tiles-failed">
          {t('plants.map.tilesFailed')}
        </div>
      )}
    </>
  );
}
