import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Descriptions,
  Empty,
  Flex,
  Result,
  Skeleton,
  Table,
  Typography,
  type TableProps,
} from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { MISSING } from '@/shared/format/number';
import { ErrorCode, isApiError } from '@/shared/http';
import { UpgradeButton } from '@/shared/upgrades';
import { CommLogButton } from '@/shared/ui/CommLogButton';
import { GatewayActions } from './actions/GatewayActions';
import { gatewayDetailQuery, type GatewayDevice } from './api';
import { GatewayKey } from './GatewayKey';
import { LastMessage } from './LastMessage';
import { deviceRoute } from '@/shared/devices/route';
import { SignalBars } from './SignalBars';
import { StatusBadge } from './status';

const text = (v: string | null | undefined) => (v && v.trim() ? v : MISSING);
const when = (v: string | null | undefined) =>
  v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : MISSING;

/** device/gateway/:id: one gateway, its versions and state, and the devices behind it. */
export default function GatewayDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const detail = useQuery(gatewayDetailQuery(id));

  const back = (
    <Button
      icon={<ArrowLeftOutlined />}
      onClick={() => void navigate('/device/gateway')}
      data-testid="gateway-back"
    >
      {t('gateways.back')}
    </Button>
  );

  if (detail.isError) {
    const missing = isApiError(detail.error, ErrorCode.GatewayMissing);
    return (
      <Result
        status={missing ? '404' : 'warning'}
        title={missing ? t('gateways.missing') : t('gateways.loadFailed')}
        extra={
          <Flex gap={8} justify="center">
            {back}
            {!missing && (
              <Button onClick={() => void detail.refetch()}>{t('common.refresh')}</Button>
            )}
          </Flex>
        }
      />
    );
  }
  const g = detail.data;

  const columns: TableProps<GatewayDevice>['columns'] = [
    {
      key: 'sn',
      title: t('gateways.device.sn'),
      render: (_, d) => {
        const to = deviceRoute(d.family, d.sn);
        return to ? (
          <Link to={to} data-testid="device-link">
            {d.sn}
          </Link>
        ) : (
          d.sn
        );
      },
    },
    { key: 'alias', title: t('gateways.column.alias'), render: (_, d) => text(d.alias) },
    {
      key: 'family',
      title: t('gateways.device.family'),
      render: (_, d) => t(`gateways.family.${d.family}`, { defaultValue: d.family }),
    },
    { key: 'model', title: t('gateways.device.model'), render: (_, d) => text(d.model) },
    { key: 'type', title: t('gateways.device.type'), render: (_, d) => d.type },
    {
      key: 'status',
      title: t('gateways.column.status'),
      render: (_, d) => <StatusBadge status={d.status} />,
    },
    { key: 'lastSeen', title: t('gateways.device.lastSeen'), render: (_, d) => when(d.lastSeen) },
  ];

  return (
    <Flex vertical gap={16}>
      <Card
        // The actions wrap under the title rather than squeeze it out or push the page wide.
        styles={{ title: { whiteSpace: 'normal', overflow: 'visible', padding: '12px 0' } }}
        title={
          <Flex gap={12} wrap align="center" justify="space-between">
            <Flex gap={12} wrap align="center">
              {back}
              <Typography.Title
                level={4}
                style={{ margin: 0, whiteSpace: 'nowrap' }}
                data-testid="gateway-title"
              >
                {g ? g.sn : t('gateways.detailTitle')}
              </Typography.Title>
            </Flex>
            {g && (
              <Flex gap={8} wrap>
                <UpgradeButton target="gateway" sn={g.sn} />
                <GatewayActions
                  sn={g.sn}
                  protocol={g.proto}
                  plantId={g.plantId ?? null}
                  uploadCycle={g.uploadCycle}
                />
                <CommLogButton kind="gateway" sn={g.sn} />
              </Flex>
            )}
          </Flex>
        }
      >
        {!g ? (
          <Skeleton active />
        ) : (
          <Descriptions
            column={{ xs: 1, sm: 2, lg: 3 }}
            size="small"
            data-testid="gateway-info"
            items={[
              {
                key: 'status',
                label: t('gateways.column.status'),
                children: <StatusBadge status={g.status} />,
              },
              { key: 'alias', label: t('gateways.column.alias'), children: text(g.alias) },
              {
                key: 'signal',
                label: t('gateways.column.signal'),
                children: <SignalBars signal={g.signal ?? null} />,
              },
              { key: 'softVer', label: t('gateways.column.softVer'), children: text(g.softVer) },
              { key: 'hardVer', label: t('gateways.column.hardVer'), children: text(g.hardVer) },
              { key: 'model', label: t('gateways.device.model'), children: text(g.model) },
              {
                key: 'protocol',
                label: t('gateways.column.protocol'),
                children: text(g.proto),
              },
              { key: 'comm', label: t('gateways.column.commType'), children: text(g.commTypeName) },
              {
                key: 'cycle',
                label: t('gateways.column.uploadCycle'),
                children: t('gateways.seconds', { value: g.uploadCycle }),
              },
              {
                key: 'lldt',
                label: t('gateways.column.lastMessage'),
                children: <LastMessage lldt={g.lldt ?? null} at={g.lastMessageAt} />,
              },
              {
                key: 'customer',
                label: t('gateways.column.customer'),
                children: text(g.customerName),
              },
              { key: 'plant', label: t('gateways.column.plant'), children: text(g.plantName) },
              ...(g.keyEditable
                ? [
                    {
                      key: 'regKey',
                      label: t('gatewayKey.label'),
                      children: <GatewayKey gateway={g} />,
                    },
                  ]
                : []),
            ]}
          />
        )}
      </Card>
      <Card title={t('gateways.devicesTitle')}>
        <Table<GatewayDevice>
          rowKey="id"
          data-testid="gateway-devices"
          columns={columns}
          dataSource={g?.devices ?? []}
          loading={detail.isPending}
          pagination={false}
          scroll={{ x: 800 }}
          locale={{ emptyText: <Empty description={t('gateways.noDevices')} /> }}
        />
      </Card>
    </Flex>
  );
}
