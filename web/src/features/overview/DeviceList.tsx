import { useQuery } from '@tanstack/react-query';
import { PlusOutlined } from '@ant-design/icons';
import { Alert, Badge, Button, Card, Empty, List, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { shownState } from '@/shared/devices/live';
import { PlantTime } from '@/shared/devices/PlantTime';
import { MISSING } from '@/shared/format/number';
import { devicesQuery, type PlantDevice } from './api';
import { deviceRoute } from '@/shared/devices/route';

/**
 * The plant's devices with their statuses (Offline once their data is stale) and when each
 * last reported, in the plant's zone; each links to its device screen. With no device yet, a
 * user who may add gateways gets the way to add one (`addGatewayTo`).
 */
export function DeviceList({
  plantId,
  zone,
  addGatewayTo,
}: {
  plantId: number;
  zone: string | undefined;
  addGatewayTo?: string;
}) {
  const { t } = useTranslation();
  const q = useQuery(devicesQuery(plantId));
  const title = (d: PlantDevice) => {
    const label = d.alias || d.sn;
    const to = deviceRoute(d.family, d.sn);
    return to ? (
      <Link to={to} data-testid="device-link">
        {label}
      </Link>
    ) : (
      <span>{label}</span>
    );
  };
  return (
    <Card title={t('overview.devices.title')} data-testid="device-list">
      {q.isError ? (
        <Alert type="warning" showIcon message={t('overview.loadFailed')} />
      ) : !q.data ? (
        <Skeleton active />
      ) : q.data.length === 0 ? (
        <Empty description={t('overview.devices.empty')}>
          {addGatewayTo && (
            <Link to={addGatewayTo}>
              <Button type="primary" icon={<PlusOutlined />} data-testid="overview-add-gateway">
                {t('plants.gateway.add')}
              </Button>
            </Link>
          )}
        </Empty>
      ) : (
        <List
          size="small"
          dataSource={q.data}
          renderItem={(d) => (
            <List.Item data-testid="device-row" data-sn={d.sn}>
              <List.Item.Meta
                title={title(d)}
                description={
                  <Typography.Text type="secondary">
                    {t(`overview.family.${d.family}`, { defaultValue: d.family })}
                    {d.alias ? ` · ${d.sn}` : ''}
                    <br />
                    <span data-testid="device-last">
                      {t('overview.devices.last')}{' '}
                      <PlantTime value={d.updateAt} zone={zone} seconds={false} />
                    </span>
                  </Typography.Text>
                }
              />
              <DeviceBadge device={d} />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}

/** A device's status; an inverter that reports itself switched off reads Off, not Normal. */
function DeviceBadge({ device: d }: { device: PlantDevice }) {
  const { t } = useTranslation();
  const s = shownState(d.status, d.stale, d.powerOn);
  return (
    <Badge
      color={s.color}
      text={t(`overview.status.${s.key}`, { defaultValue: MISSING })}
      data-testid="device-status"
      data-state={s.key}
    />
  );
}
