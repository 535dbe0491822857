import { useQuery } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Card,
  Col,
  Empty,
  Flex,
  Input,
  Result,
  Row,
  Select,
  Statistic,
  Table,
  Typography,
  type TableProps,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { plantOptionsQuery } from '@/shared/api/plants';
import { liveClass, shownState } from '@/shared/devices/live';
import { formatNumber, MISSING } from '@/shared/format/number';
import { formatPlantTime } from '@/shared/format/time';
import { formatEnergy, formatPower } from '@/shared/format/units';
import { useDraft } from '@/shared/hooks/useDraft';
import { CLIPPED, cardColumn, clipped } from '@/shared/list/columns';
import { RowCard } from '@/shared/list/RowCard';
import { useListQuery } from '@/shared/list/useListQuery';
import { AgentFilter } from '@/shared/ui/PickerFilters';
import { STATUSES } from '@/shared/ui/status';
import { useNarrow } from '@/shared/ui/useNarrow';
import { useUpgradeSelection } from '@/shared/upgrades';
import { INVERTER_FILTERS, inverterCountsQuery, inverterListQuery, type InverterRow } from './api';
import { inverterTypeLabelKey, TYPE_FILTER_CODES } from './typeLabel';

/** device/inverter: status counts, filters, and the paged inverter list. */
export default function InverterListPage() {
  const { t } = useTranslation();
  const { query, list, update, setPage, filtered } = useListQuery(
    INVERTER_FILTERS,
    inverterListQuery,
  );
  const [sn, setSn] = useDraft(query.sn);
  const [gsn, setGsn] = useDraft(query.gsn);
  const [version, setVersion] = useDraft(query.softVer);
  const upgrade = useUpgradeSelection('inverter');
  const counts = useQuery(inverterCountsQuery);
  const plants = useQuery(plantOptionsQuery);
  const phone = useNarrow();

  const snLink = (row: InverterRow) => (
    <Link to={`/device/inverter/${encodeURIComponent(row.sn)}`} data-testid="inverter-sn">
      {row.sn}
    </Link>
  );
  const statusBadge = (row: InverterRow) => {
    const s = shownState(row.status, row.stale, row.opened === 0 ? false : null);
    return (
      <Badge color={s.color} text={t(`inverters.status.${s.key}`)} data-testid="inverter-status" />
    );
  };
  const pac = (row: InverterRow) => (
    <span className={liveClass(row.stale)} data-testid="inverter-pac">
      {formatPower(row.pac)}
    </span>
  );
  const versions = (row: InverterRow) =>
    [row.version.softVer, row.version.hmiVer].filter(Boolean).join(' / ') || MISSING;
  // At 1440 px name, plant and today's figures fit without scrolling: the lifetime energy,
  // rated power, versions and last data join them from 1600 px (antd's xxl) and on the card.
  const wideOnly = { responsive: ['xxl' as const] };
  const columns: TableProps<InverterRow>['columns'] = [
    {
      key: 'sn',
      title: t('inverters.column.sn'),
      fixed: 'left',
      width: 140,
      render: (_, row) => snLink(row),
    },
    {
      key: 'alias',
      dataIndex: 'alias',
      title: t('inverters.column.alias'),
      width: 155,
      ...CLIPPED,
      render: (v: string) => clipped(v || MISSING),
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('inverters.column.status'),
      width: 100,
      render: (_, row) => statusBadge(row),
    },
    {
      key: 'type',
      dataIndex: 'type',
      title: t('inverters.column.type'),
      width: 175,
      ...CLIPPED,
      render: (v: number) => clipped(t(inverterTypeLabelKey(v))),
    },
    {
      key: 'plant',
      title: t('inverters.column.plant'),
      ...CLIPPED,
      render: (_, row) => clipped(row.plant?.name ?? MISSING),
    },
    {
      key: 'gsn',
      title: t('inverters.column.gateway'),
      width: 120,
      render: (_, row) => row.gatewayVO?.gsn ?? MISSING,
    },
    {
      key: 'pac',
      dataIndex: 'pac',
      title: t('inverters.column.pac'),
      align: 'right',
      width: 95,
      render: (_, row) => pac(row),
    },
    {
      key: 'etoday',
      dataIndex: 'etoday',
      title: t('inverters.column.etoday'),
      align: 'right',
      width: 100,
      render: (v: number) => formatEnergy(v),
    },
    {
      key: 'etotal',
      dataIndex: 'etotal',
      title: t('inverters.column.etotal'),
      align: 'right',
      width: 110,
      ...wideOnly,
      render: (v: number) => formatEnergy(v),
    },
    {
      key: 'ratePower',
      dataIndex: 'ratePower',
      title: t('inverters.column.ratePower'),
      align: 'right',
      width: 110,
      ...wideOnly,
      render: (v: number | null) => (v ? formatPower(v) : MISSING),
    },
    {
      key: 'version',
      title: t('inverters.column.version'),
      width: 150,
      ...wideOnly,
      ...CLIPPED,
      render: (_, row) => clipped(versions(row)),
    },
    {
      key: 'updateAt',
      dataIndex: 'updateAt',
      title: t('inverters.column.updateAt'),
      width: 230,
      ...wideOnly,
      // In the plant's zone, named (one rule for device times).
      render: (v: string, row) => formatPlantTime(v, row.timezone),
    },
  ];
  const cards: TableProps<InverterRow>['columns'] = [
    cardColumn(t('inverters.title'), (row) => (
      <RowCard
        testId="inverter-card"
        title={
          <>
            {snLink(row)}
            {row.alias ? <Typography.Text type="secondary"> · {row.alias}</Typography.Text> : null}
          </>
        }
        status={statusBadge(row)}
        fields={[
          { label: t('inverters.column.pac'), value: pac(row) },
          {
            label: `${t('inverters.column.etoday')} / ${t('inverters.column.etotal')}`,
            value: `${formatEnergy(row.etoday)} / ${formatEnergy(row.etotal)}`,
          },
          { label: t('inverters.column.plant'), value: row.plant?.name ?? MISSING },
          { label: t('inverters.column.type'), value: t(inverterTypeLabelKey(row.type)) },
          { label: t('inverters.column.gateway'), value: row.gatewayVO?.gsn ?? MISSING },
          { label: t('inverters.column.version'), value: versions(row) },
          {
            label: t('inverters.column.updateAt'),
            value: formatPlantTime(row.updateAt, row.timezone),
          },
        ]}
      />
    )),
  ];

  return (
    <Flex vertical gap={16}>
      <Row gutter={[12, 12]} data-testid="inverter-counts">
        {(['total', ...STATUSES.map((s) => s.key)] as const).map((key) => {
          const status = STATUSES.find((s) => s.key === key);
          const active = status ? query.status === status.value : query.status === -1;
          return (
            <Col key={key} xs={12} sm={8} md={4}>
              <Card
                size="small"
                hoverable
                onClick={() => update({ status: status ? status.value : -1 })}
                style={active ? { borderColor: status?.color ?? '#00cc00' } : undefined}
                data-testid={`count-${key}`}
              >
                <Statistic
                  title={
                    status ? (
                      <Badge color={status.color} text={t(`inverters.status.${key}`)} />
                    ) : (
                      t('inverters.count.total')
                    )
                  }
                  value={counts.data ? counts.data[key] : MISSING}
                  loading={counts.isPending}
                />
              </Card>
            </Col>
          );
        })}
      </Row>
      <Card
        title={
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="inverters-title">
            {t('inverters.title')}
          </Typography.Title>
        }
      >
        <Flex gap={12} wrap style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            placeholder={t('inverters.filter.sn')}
            aria-label={t('inverters.filter.sn')}
            value={sn}
            onChange={(e) => setSn(e.target.value)}
            onSearch={(v) => update({ sn: v })}
            style={{ width: 200 }}
            data-testid="filter-sn"
          />
          <Select
            aria-label={t('inverters.column.status')}
            value={query.status}
            onChange={(status: number) => update({ status })}
            style={{ width: 150 }}
            options={[
              { value: -1, label: t('inverters.filter.anyStatus') },
              ...STATUSES.map((s) => ({
                value: s.value,
                label: <Badge color={s.color} text={t(`inverters.status.${s.key}`)} />,
              })),
            ]}
          />
          <Select
            aria-label={t('inverters.column.type')}
            value={query.type}
            onChange={(type: number) => update({ type })}
            style={{ width: 220 }}
            options={[
              { value: -2, label: t('inverters.filter.anyType') },
              ...TYPE_FILTER_CODES.map((c) => ({ value: c, label: t(inverterTypeLabelKey(c)) })),
            ]}
          />
          <Select
            aria-label={t('inverters.column.plant')}
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t('inverters.filter.anyPlant')}
            value={query.plantId ?? undefined}
            onChange={(plantId?: number) => update({ plantId: plantId ?? null })}
            loading={plants.isPending}
            style={{ width: 220 }}
            options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
          <AgentFilter
            value={query.agentCompanyId}
            onChange={(agentCompanyId) => update({ agentCompanyId })}
            width={200}
            label={t('inverters.filter.agent')}
            placeholder={t('inverters.filter.anyAgent')}
          />
          <Input.Search
            allowClear
            placeholder={t('inverters.filter.gateway')}
            aria-label={t('inverters.filter.gateway')}
            value={gsn}
            onChange={(e) => setGsn(e.target.value)}
            onSearch={(v) => update({ gsn: v })}
            style={{ width: 180 }}
          />
          <Input.Search
            allowClear
            placeholder={t('inverters.filter.version')}
            aria-label={t('inverters.filter.version')}
            value={version}
            onChange={(e) => setVersion(e.target.value)}
            onSearch={(v) => update({ softVer: v })}
            style={{ width: 180 }}
          />
          {upgrade.button}
        </Flex>
        {list.isError ? (
          <Result
            status="warning"
            title={t('inverters.loadFailed')}
            extra={<Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
          />
        ) : (
          <Table<InverterRow>
            rowKey="sn"
            rowSelection={upgrade.rowSelection}
            data-testid="inverter-table"
            columns={phone ? cards : columns}
            dataSource={list.data?.infos ?? []}
            loading={list.isFetching}
            size={phone ? 'small' : 'middle'}
            // below the width the columns need (a tablet) the table scrolls inside its card
            scroll={phone ? undefined : { x: 1100 }}
            locale={{
              emptyText: (
                <Empty
                  description={filtered ? t('inverters.emptyFiltered') : t('inverters.empty')}
                />
              ),
            }}
            pagination={{
              current: query.page,
              pageSize: query.limit,
              total: list.data?.total ?? 0,
              showSizeChanger: !phone,
              pageSizeOptions: [10, 20, 50, 100],
              showTotal: (total) => t('inverters.total', { total: formatNumber(total) }),
            }}
            onChange={(p) => setPage(p.current ?? 1, p.pageSize)}
          />
        )}
      </Card>
    </Flex>
  );
}
