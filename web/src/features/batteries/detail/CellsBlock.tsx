import { Card, Empty, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { liveClass } from '@/shared/devices/live';
import { formatTemp, type TempUnit } from '@/shared/devices/temp';
import { useCurrentUser } from '@/shared/user';
import type { BatteryRealtime } from '../api';
import { cellSpreadMv, cellTiles } from '../cells';

/** The cells' voltages (and temperatures), the highest and lowest marked. */
export function CellsBlock({ r, stale }: { r: BatteryRealtime; stale: boolean }) {
  const { t } = useTranslation();
  const temp: TempUnit = useCurrentUser().data?.tempUnit ?? 'C';
  const tiles = cellTiles(r);
  const spread = cellSpreadMv(r);
  const label = (tile: (typeof tiles)[number]) =>
    tile.kind === 'cell'
      ? tile.pack === null
        ? t('batteries.cells.cell', { no: tile.cell })
        : t('batteries.cells.packCell', { pack: tile.pack, no: tile.cell })
      : t(tile.kind === 'packMax' ? 'batteries.cells.packMax' : 'batteries.cells.packMin', {
          pack: tile.pack,
        });
  return (
    <Card
      size="small"
      title={t('batteries.cells.title')}
      data-testid="battery-cells"
      className={liveClass(stale)}
    >
      {tiles.length === 0 ? (
        <Empty description={t('batteries.cells.none')} />
      ) : (
        <Flex vertical gap={8}>
          {spread !== null && (
            <Typography.Text type="secondary" data-testid="cell-spread">
              {t('batteries.cells.spread', { mv: spread })}
            </Typography.Text>
          )}
          <div className="cell-grid">
            {tiles.map((tile) => (
              <div
                key={tile.key}
                data-testid="cell-tile"
                data-extreme={tile.extreme ?? ''}
                className={['cell-tile', tile.extreme ? `is-${tile.extreme}` : ''].join(' ')}
              >
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {label(tile)}
                </Typography.Text>
                <div>
                  <Typography.Text strong data-testid="cell-voltage">
                    {tile.voltage.toFixed(3)} V
                  </Typography.Text>
                  {tile.extreme && (
                    <Tag
                      color={tile.extreme === 'max' ? 'red' : 'blue'}
                      style={{ marginInlineStart: 6 }}
                    >
                      {t(`batteries.cells.${tile.extreme}`)}
                    </Tag>
                  )}
                </div>
                {tile.temp !== null && (
                  <Typography.Text type="secondary" data-testid="cell-temp">
                    {formatTemp(tile.temp, temp)}
                  </Typography.Text>
                )}
              </div>
            ))}
          </div>
        </Flex>
      )}
    </Card>
  );
}
