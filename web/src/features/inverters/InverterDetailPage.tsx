import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Card, Flex, Result, Skeleton, Space, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { shownState } from '@/shared/devices/live';
import { StaleNotice } from '@/shared/devices/StaleNotice';
import '@/shared/devices/monitor.css';
import { ErrorCode, isApiError } from '@/shared/http';
import { UpgradeButton } from '@/shared/upgrades';
import { inverterDetailQuery, type Port } from './api';
import { CommLogButton } from '@/shared/ui/CommLogButton';
import { DebugButton } from './DebugButton';
import { PowerButtons } from './PowerButtons';
import { InfoTab } from './InfoTab';
import { PortTab } from './PortTab';
import { inverterTypeLabelKey, isHybrid } from './typeLabel';

/** Tabs after the basic information; battery, EPS and generator exist on hybrids only. */
const PORTS: Port[] = ['input', 'output', 'grid', 'load', 'battery', 'eps', 'gen', 'meter'];
const HYBRID_ONLY: readonly Port[] = ['battery', 'eps', 'gen'];

/** device/inverter/:sn: one inverter's information and its ports, realtime and history. */
export default function InverterDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const sn = decodeURIComponent(useParams().sn ?? '');
  // The query is live: the power state and the last data follow what it reports.
  const detail = useQuery(inverterDetailQuery(sn));
  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate('/device/inverter')}>
      {t('inverters.back')}
    </Button>
  );

  if (detail.isPending)
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  if (detail.isError) {
    const missing = isApiError(detail.error) && detail.error.code === ErrorCode.InverterMissing;
    return (
      <Result
        status={missing ? '404' : 'warning'}
        title={missing ? t('inverters.missing') : t('inverters.loadFailed')}
        extra={
          <Space>
            {back}
            {!missing && (
              <Button onClick={() => void detail.refetch()}>{t('common.refresh')}</Button>
            )}
          </Space>
        }
      />
    );
  }
  const inv = detail.data;
  const status = shownState(inv.status, inv.stale, inv.online ? inv.opened === 1 : null);
  const ports = PORTS.filter((p) => isHybrid(inv.type) || !HYBRID_ONLY.includes(p));

  return (
    <Card
      className="monitor-page"
      title={
        <Flex gap={12} align="center" wrap>
          {back}
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="inverter-title">
            {inv.alias || inv.sn}
          </Typography.Title>
          {inv.alias && <Typography.Text type="secondary">{inv.sn}</Typography.Text>}
          <Badge
            color={status.color}
            text={t(`inverters.status.${status.key}`)}
            data-testid="inverter-status"
          />
          <Tag>{t(inverterTypeLabelKey(inv.type))}</Tag>
        </Flex>
      }
      extra={
        <Flex gap={8} wrap justify="flex-end">
          <CommLogButton kind="device" sn={inv.sn} />
          <UpgradeButton
            target="inverter"
            sn={inv.sn}
            plantKeys={inv.plant ? (inv.plantPermission ?? []) : undefined}
          />
        </Flex>
      }
    >
      <StaleNotice stale={inv.stale} updateAt={inv.lastSeen} zone={inv.timezone} />
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'info',
            label: t('inverters.tab.info'),
            children: (
              <Flex vertical gap={16}>
                <PowerButtons
                  sn={inv.sn}
                  keys={inv.plantPermission ?? []}
                  on={inv.online ? inv.opened === 1 : null}
                />
                <DebugButton kind="inverter" sn={inv.sn} keys={inv.plantPermission ?? []} />
                <InfoTab inv={inv} />
              </Flex>
            ),
          },
          ...ports.map((port) => ({
            key: port,
            label: <span data-testid={`tab-${port}`}>{t(`inverters.tab.${port}`)}</span>,
            children: <PortTab port={port} sn={inv.sn} timezone={inv.timezone} />,
          })),
        ]}
      />
    </Card>
  );
}
