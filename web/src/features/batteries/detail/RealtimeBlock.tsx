import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Col,
  Descriptions,
  Flex,
  Progress,
  Result,
  Row,
  Skeleton,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { withUnit } from '@/shared/devices/format';
import { liveClass } from '@/shared/devices/live';
import { StaleNotice } from '@/shared/devices/StaleNotice';
import { formatTemp, type TempUnit } from '@/shared/devices/temp';
import { formatNumber, MISSING } from '@/shared/format/number';
import { formatPlantTime } from '@/shared/format/time';
import { formatPower } from '@/shared/format/units';
import { useCurrentUser } from '@/shared/user';
import { batteryRealtimeQuery } from '../api';
import { CellsBlock } from './CellsBlock';
import { EnergyBlock } from './EnergyBlock';

/** A relay or a state as a tag: set green, unset grey, unknown a dash. */
function relay(t: (k: string) => string, v: boolean | null, on: string, off: string) {
  if (v === null) return <Tag>{MISSING}</Tag>;
  return <Tag color={v ? 'green' : 'default'}>{t(v ? on : off)}</Tag>;
}

/** The live values: charge and health, readings, relays and states, energy and cells. */
export function RealtimeBlock({ sn }: { sn: string }) {
  const { t } = useTranslation();
  const temp: TempUnit = useCurrentUser().data?.tempUnit ?? 'C';
  const rt = useQuery(batteryRealtimeQuery(sn));
  if (rt.isError)
    return (
      <Card title={t('batteries.realtime')}>
        <Result
          status="warning"
          title={t('batteries.loadFailed')}
          extra={<Button onClick={() => void rt.refetch()}>{t('common.refresh')}</Button>}
        />
      </Card>
    );
  if (rt.isPending)
    return (
      <Card title={t('batteries.realtime')}>
        <Skeleton active />
      </Card>
    );
  const r = rt.data;
  const pct = (v: string | null) => (v === null ? 0 : Math.max(0, Math.min(100, Number(v))));
  const stale = r.stale === true;
  return (
    <Row gutter={[16, 16]}>
      {stale && (
        <Col span={24}>
          <StaleNotice stale updateAt={r.updateAt} zone={r.timezone} />
        </Col>
      )}
      <Col xs={24} lg={10}>
        <Card
          title={t('batteries.realtime')}
          style={{ height: '100%' }}
          className={liveClass(stale)}
          data-stale={stale ? 'true' : 'false'}
          data-testid="battery-realtime"
        >
          <Typography.Text type="secondary" data-testid="battery-time">
            {formatPlantTime(r.time, r.timezone)}
          </Typography.Text>
          <Flex justify="space-around" wrap gap={16}>
            <Flex vertical align="center" data-testid="battery-soc">
              <Progress type="dashboard" percent={pct(r.soc)} format={() => withUnit(r.soc, '%')} />
              <Typography.Text>{t('batteries.field.soc')}</Typography.Text>
            </Flex>
            <Flex vertical align="center" data-testid="battery-soh">
              <Progress
                type="dashboard"
                percent={pct(r.soh)}
                strokeColor="#2ec4d6"
                format={() => withUnit(r.soh, '%')}
              />
              <Typography.Text>{t('batteries.field.soh')}</Typography.Text>
            </Flex>
          </Flex>
          <Descriptions size="small" column={{ xs: 1, sm: 2 }} style={{ marginTop: 16 }}>
            <Descriptions.Item label={t('batteries.field.voltage')}>
              {withUnit(r.voltage, 'V')}
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.current')}>
              {withUnit(r.current, 'A')}
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.power')}>
              <span data-testid="battery-power">{formatPower(r.power)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.cycles')}>
              {formatNumber(r.cycles)}
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.tempMax')}>
              <span data-testid="battery-temp-max">{formatTemp(r.tempMax, temp)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.tempMin')}>
              {formatTemp(r.tempMin, temp)}
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.capacity')}>
              {withUnit(r.capacity, 'Ah')}
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.capacityRemaining')}>
              {withUnit(r.capacityRemaining, 'Ah')}
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.chargeLimit')}>
              {withUnit(r.chargeCurrentLimit, 'A')}
            </Descriptions.Item>
            <Descriptions.Item label={t('batteries.field.dischargeLimit')}>
              {withUnit(r.dischargeCurrentLimit, 'A')}
            </Descriptions.Item>
          </Descriptions>
        </Card>
      </Col>
      <Col xs={24} lg={14}>
        <Flex vertical gap={16} style={{ height: '100%' }}>
          <Card
            size="small"
            title={t('batteries.relays')}
            data-testid="battery-relays"
            className={liveClass(stale)}
          >
            <Space wrap>
              <span>{t('batteries.relay.charge')}</span>
              {relay(t, r.chargeRelay, 'batteries.relay.closed', 'batteries.relay.open')}
              <span>{t('batteries.relay.discharge')}</span>
              {relay(t, r.dischargeRelay, 'batteries.relay.closed', 'batteries.relay.open')}
              {relay(t, r.charging, 'batteries.state.charging', 'batteries.state.notCharging')}
              {relay(
                t,
                r.discharging,
                'batteries.state.discharging',
                'batteries.state.notDischarging',
              )}
              {relay(t, r.balancing, 'batteries.state.balancing', 'batteries.state.notBalancing')}
              {(r.alarmWord ?? 0) > 0 && <Tag color="orange">{t('batteries.state.alarm')}</Tag>}
              {(r.faultWord ?? 0) > 0 && <Tag color="red">{t('batteries.state.fault')}</Tag>}
            </Space>
          </Card>
          <EnergyBlock r={r} />
          <CellsBlock r={r} stale={stale} />
        </Flex>
      </Col>
    </Row>
  );
}
