import './texts';
import './fleet.css';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Card, Col, Empty, Flex, Row, Skeleton, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage } from '@/shared/i18n';
import { useListParams } from '@/shared/list/useListQuery';
import { useCan } from '@/shared/permissions';
import { DeferredSelect as Select } from '@/shared/ui/DeferredSelect';
import { AgentFilter, CustomerFilter } from '@/shared/ui/PickerFilters';
import { Problem } from '@/shared/ui/Problem';
import { STATUSES } from '@/shared/ui/status';
import { useNarrow } from '@/shared/ui/useNarrow';
import { FLEET_FILTERS, fleetSummaryQuery, plantTypesQuery } from './api';
import { AlarmsCard } from './AlarmsCard';
import { RankingCard } from './RankingCard';
import { SilentCard } from './SilentCard';
import { Tiles } from './Tiles';

/**
 * "/" for whoever sees more than one plant: which plants need attention and why. Every figure
 * is over the plants the plant list shows with the same filters (customer, agent, type,
 * status), read again at the live interval.
 */
export default function FleetDashboardPage() {
  const { t } = useTranslation();
  const phone = useNarrow();
  const mayCreate = useCan('station.create');
  const { query, update, set, reset } = useListParams(FLEET_FILTERS);
  // the period is the ranking's switch, not a filter of the plants
  const anyFilter =
    query.status !== -1 ||
    query.type !== -1 ||
    query.agentCompanyId !== -1 ||
    query.customerId !== null;
  const summary = useQuery(fleetSummaryQuery(query));
  const types = useQuery(plantTypesQuery(currentLanguage()));
  const data = summary.data;
  // durations are told from the server's clock at the answer (no clock read while rendering)
  const now = data ? Date.parse(data.updateAt) : 0;
  const width = phone ? '100%' : 180;

  const filters = (
    <Flex gap={8} wrap data-testid="fleet-filters">
      <CustomerFilter
        value={query.customerId}
        onChange={(customerId) => update({ customerId })}
        width={width}
        label={t('fleet.filter.customer')}
        placeholder={t('fleet.filter.anyCustomer')}
      />
      <AgentFilter
        value={query.agentCompanyId}
        onChange={(agentCompanyId) => update({ agentCompanyId })}
        width={width}
        label={t('fleet.filter.agent')}
        placeholder={t('fleet.filter.anyAgent')}
      />
      <Select
        aria-label={t('fleet.filter.type')}
        value={query.type}
        onChange={(type: number) => update({ type })}
        style={{ width }}
        options={[
          { value: -1, label: t('fleet.filter.anyType') },
          ...(types.data ?? []).map((ty) => ({ value: ty.id, label: ty.name })),
        ]}
        data-testid="fleet-type"
      />
      <Select
        aria-label={t('fleet.filter.status')}
        value={query.status}
        onChange={(status: number) => update({ status })}
        style={{ width }}
        options={[
          { value: -1, label: t('fleet.filter.anyStatus') },
          ...STATUSES.map((s) => ({
            value: s.value,
            label: <Badge color={s.color} text={t(`plants.status.${s.key}`)} />,
          })),
        ]}
        data-testid="fleet-status-filter"
      />
      {anyFilter && (
        <Button onClick={() => reset()} data-testid="fleet-clear">
          {t('fleet.filter.clear')}
        </Button>
      )}
    </Flex>
  );

  const header = (
    <Card size="small">
      <Flex justify="space-between" align="center" gap={12} wrap>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="fleet-title">
            {t('fleet.title')}
          </Typography.Title>
          {data && (
            <Typography.Text type="secondary" data-testid="fleet-updated">
              {t('fleet.plants', { count: data.plants.total })}
              {' · '}
              {t('fleet.updated', { time: dayjs(data.updateAt).format('HH:mm:ss') })}
            </Typography.Text>
          )}
        </div>
        {filters}
      </Flex>
    </Card>
  );

  let body;
  if (summary.isPending) {
    body = <Skeleton active paragraph={{ rows: 8 }} data-testid="fleet-loading" />;
  } else if (summary.isError || !data) {
    body = (
      <Problem
        title={t('fleet.loadFailed')}
        testId="fleet-error"
        extra={
          <Button onClick={() => void summary.refetch()} data-testid="fleet-retry">
            {t('fleet.retry')}
          </Button>
        }
      />
    );
  } else if (data.plants.total === 0) {
    body = (
      <Card>
        <Empty
          description={anyFilter ? t('fleet.emptyFiltered') : t('fleet.empty')}
          data-testid="fleet-empty"
        >
          {anyFilter ? (
            <Button onClick={() => reset()}>{t('fleet.filter.clear')}</Button>
          ) : (
            mayCreate && (
              <Link to="/plant-add">
                <Button type="primary">{t('fleet.addPlant')}</Button>
              </Link>
            )
          )}
        </Empty>
      </Card>
    );
  } else {
    body = (
      <Flex vertical gap={16}>
        <Tiles data={data} query={query} />
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={12}>
            <AlarmsCard data={data} now={now} />
          </Col>
          <Col xs={24} xl={12}>
            <SilentCard data={data} now={now} />
          </Col>
        </Row>
        <RankingCard data={data} period={query.period} onPeriod={(period) => set({ period })} />
      </Flex>
    );
  }

  return (
    <Flex vertical gap={16} className="fleet-page" data-testid="fleet-dashboard">
      {header}
      {body}
    </Flex>
  );
}
