import { useQuery } from '@tanstack/react-query';
import { Alert, Badge, Card, Empty, List, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MISSING } from '@/shared/format/number';
import { devicesQuery, type PlantDevice } from './api';
import { deviceRoute, statusBadge } from './status';

/** The plant's devices with their statuses; each links to its device screen. */
export function DeviceList({ plantId }: { plantId: number }) {
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
        <Empty description={t('overview.devices.empty')} />
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
                    {t(`overview.family.${d.family}`, { defaultValue: d.family })} · {d.sn}
                    {d.updateAt ? '' : ` · ${MISSING}`}
                  </Typography.Text>
                }
              />
              <Badge
                status={statusBadge(d.status)}
                text={t(`overview.status.${d.status}`, { defaultValue: MISSING })}
                data-testid="device-status"
              />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
