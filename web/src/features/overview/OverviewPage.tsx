import { ArrowLeftOutlined, EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Col, Flex, Result, Row, Skeleton, Space, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { plantState } from '@/shared/devices/live';
import { StaleNotice } from '@/shared/devices/StaleNotice';
import '@/shared/devices/monitor.css';
import { formatNumber } from '@/shared/format/number';
import { ErrorCode, isApiError } from '@/shared/http';
import { plantHeadQuery, realtimeQuery, type Period } from './api';
import { DeviceList } from './DeviceList';
import { EnergyChart } from './EnergyChart';
import { EventsCard } from './EventsCard';
import { FlowCard } from './FlowCard';
import { PerformanceCard } from './PerformanceCard';
import { TodayCard } from './TodayCard';
import { WeatherCard } from './WeatherCard';
import { todayIn } from '@/shared/format/time';
import { isStorage } from './format';

/**
 * plants/overview/{id}/{type}: one plant at a glance. The layout follows the plant type: a
 * storage plant shows its battery (node, SOC curve); a grid-tied plant without one does not.
 */
export default function OverviewPage() {
  const { t } = useTranslation();
  const { id: idParam, type: typeParam } = useParams();
  const id = Number(idParam);
  const valid = Number.isInteger(id) && id > 0;
  const plant = useQuery({ ...plantHeadQuery(id), enabled: valid });
  // The same query (and cache entry) as the Today card's: the page tells whether it is live
  // and whether its inverters are all switched off.
  const live = useQuery({ ...realtimeQuery(id), enabled: valid });
  // The chart's period and date, which the Performance card follows (the plant's today until
  // one is picked).
  const [period, setPeriod] = useState<Period>('day');
  const [picked, setPicked] = useState<Dayjs | null>(null);

  const back = (
    <Link to="/plants">
      <ArrowLeftOutlined /> {t('overview.back')}
    </Link>
  );
  if (!valid || (plant.isError && isApiError(plant.error, ErrorCode.PlantMissing))) {
    return (
      <Result
        status="404"
        title={t('overview.notFound')}
        extra={back}
        data-testid="overview-not-found"
      />
    );
  }
  if (plant.isError)
    return <Result status="warning" title={t('overview.loadFailed')} extra={back} />;
  if (!plant.data) return <Skeleton active />;
  const p = plant.data;
  // The route's type is what the list knew; the plant's own type wins once loaded.
  const type = p.type ?? Number(typeParam);
  const zone = p.timezone?.code;
  const today = todayIn(zone);
  const date = picked ?? today;
  const canEdit = p.plantPermission.includes('station.edit');
  const stale = live.data?.stale ?? false;
  const status = plantState(p.status, stale, live.data?.switchedOff);

  return (
    <Flex vertical gap={16} data-testid="plant-overview" className="monitor-page">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Space direction="vertical" size={0} style={{ minWidth: 0 }}>
          {back}
          <Space wrap>
            <Typography.Title
              level={3}
              style={{ margin: 0, overflowWrap: 'anywhere' }}
              data-testid="overview-name"
            >
              {p.name}
            </Typography.Title>
            <Badge
              color={status.color}
              text={t(`overview.status.${status.key}`)}
              data-testid="overview-status"
              data-state={status.key}
            />
            <Tag>{t(`overview.type.${type}`, { defaultValue: String(type) })}</Tag>
          </Space>
          <Typography.Text type="secondary">
            {[p.address, `${formatNumber(p.totalPower)} kWp`, zone].filter(Boolean).join(' · ')}
          </Typography.Text>
        </Space>
        {canEdit && (
          <Link to={`/plants/edit/${p.id}`}>
            <Button icon={<EditOutlined />}>{t('overview.edit')}</Button>
          </Link>
        )}
      </Flex>
      <StaleNotice stale={stale} updateAt={live.data?.updateAt} zone={zone} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <FlowCard plantId={p.id} storage={isStorage(type)} zone={zone} />
        </Col>
        <Col xs={24} xl={10}>
          <TodayCard plantId={p.id} storage={isStorage(type)} />
        </Col>
        <Col span={24}>
          <EnergyChart
            plantId={p.id}
            today={today}
            zone={zone ?? 'UTC'}
            period={period}
            date={date}
            onPeriod={setPeriod}
            onDate={setPicked}
          />
        </Col>
        <Col span={24}>
          <PerformanceCard plantId={p.id} period={period} date={date} />
        </Col>
        <Col xs={24} lg={8}>
          <DeviceList
            plantId={p.id}
            zone={zone}
            addGatewayTo={
              canEdit || p.plantPermission.includes('gateway.add')
                ? `/plants/edit/${p.id}?addGateway=1`
                : undefined
            }
          />
        </Col>
        <Col xs={24} lg={8}>
          <EventsCard plantId={p.id} />
        </Col>
        <Col xs={24} lg={8}>
          <WeatherCard plantId={p.id} today={today} />
        </Col>
      </Row>
    </Flex>
  );
}
