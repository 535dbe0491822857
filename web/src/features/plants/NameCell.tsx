import { AppstoreOutlined } from '@ant-design/icons';
import { Flex, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { formatNumber, MISSING } from '@/shared/format/number';
import type { PlantRow } from './api';
import { overviewPath, type ListWidth } from './actions';
import { plantState } from '@/shared/devices/live';
import { DeferredTag as Tag } from '@/shared/ui/DeferredTag';
import { StatusDot } from '@/shared/ui/StatusDot';

/**
 * A row's name cell: thumbnail, the name as a link to the plant's overview, tags, and the
 * plant type below (on a phone also the status dot and the capacity, whose columns are gone).
 */
export function NameCell({ row, width, t }: { row: PlantRow; width: ListWidth; t: TFunction }) {
  const status = plantState(row.status, row.stale, row.switchedOff);
  const sub = [
    t(`plants.type.${row.type}`, { defaultValue: MISSING }),
    width === 'phone' ? `${formatNumber(row.totalPower)} kWp` : null,
  ].filter(Boolean);
  return (
    <Flex gap={10} align="center" style={{ minWidth: 0 }}>
      {width !== 'phone' &&
        (row.thumbUrl ? (
          <img src={row.thumbUrl} alt="" className="plant-thumb" />
        ) : (
          <div className="plant-thumb plant-thumb-empty" aria-hidden>
            <AppstoreOutlined />
          </div>
        ))}
      <div style={{ minWidth: 0 }}>
        {/* On a phone the dot, the name and its tags stay on one line and a long name wraps
            within it; letting the items wrap put the name alone below its dot. */}
        <Flex gap={4} wrap={width !== 'phone'} align="center">
          {width === 'phone' && (
            <StatusDot
              color={status.color}
              title={t(`plants.status.${status.key}`)}
              aria-label={t(`plants.status.${status.key}`)}
              role="img"
              data-testid="plant-status"
              data-state={status.key}
            />
          )}
          <Link to={overviewPath(row)} className="plant-name" data-testid="plant-name">
            {row.name}
          </Link>
          {row.share && (
            <Tag color="blue" data-testid="shared-tag">
              {t('plants.shared')}
            </Tag>
          )}
          {row.offered && (
            <Tooltip title={t('plants.offer.waitingHelp')}>
              <Tag color="gold" data-testid="offered-tag">
                {t('plants.offer.waiting')}
              </Tag>
            </Tooltip>
          )}
        </Flex>
        <Typography.Text type="secondary" className="plant-sub">
          {sub.join(' · ')}
        </Typography.Text>
      </div>
    </Flex>
  );
}
