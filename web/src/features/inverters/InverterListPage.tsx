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
import { liveClass, shownStatus } from '@/shared/devices/live';
import { formatNumber, MISSING } from '@/shared/format/number';
import { formatPlantTime } from '@/shared/format/time';
import { formatEnergy, formatPower } from '@/shared/format/units';
import { useDraft } from '@/shared/hooks/useDraft';
import { useListQuery } from '@/shared/list/useListQuery';
import { AgentFilter } from '@/shared/ui/PickerFilters';
import { statusOf, STATUSES } from '@/shared/ui/status';
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

  const columns: TableProps<InverterRow>['columns'] = [
    {
      key: 'sn',
      title: t('inverters.column.sn'),
      fixed: 'left',
      width: 150,
      render: (_, row) => (
        <Link to={`/device/inverter/${encodeURIComponent(row.sn)}`} data-testid="inverter-sn">
          {row.sn}
        </Link>
      ),
    },
    {
      key: 'alias',
      dataIndex: 'alias',
      title: t('inverters.column.alias'),
      ellipsis: true,
      render: (v: string) => v || MISSING,
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('inverters.column.status'),
      width: 110,
      render: (v: number, row) => {
        const s = statusOf(shownStatus(v, row.stale));
        return <Badge color={s.color} text={t(`inverters.status.${s.key}`)} />;
      },
    },
    {
      key: 'type',
      dataIndex: 'type',
      title: t('inverters.column.type'),
      width: 190,
      render: (v: number) => t(inverterTypeLabelKey(v)),
    },
    {
      key: 'plant',
      title: t('inverters.column.plant'),
      ellipsis: true,
      render: (_, row) => row.plant?.name ?? MISSING,
    },
    {
      key: 'gsn',
      title: t('inverters.column.gateway'),
      width: 140,
      render: (_, row) => row.gatewayVO?.gsn ?? MISSING,
    },
    {
      key: 'pac',
      dataIndex: 'pac',
      title: t('inverters.column.pac'),
      align: 'right',
      width: 110,
      render: (v: number, row) => (
        <span className={liveClass(row.stale)} data-testid="inverter-pac">
          {formatPower(v)}
        </span>
      ),
    },
    {
      key: 'etoday',
      dataIndex: 'etoday',
      title: t('inverters.column.etoday'),
      align: 'right',
      width: 110,
      render: (v: number) => formatEnergy(v),
    },
    {
      key: 'etotal',
      dataIndex: 'etotal',
      title: t('inverters.column.etotal'),
      align: 'right',
      width: 120,
      render: (v: number) => formatEnergy(v),
    },
    {
      key: 'ratePower',
      dataIndex: 'ratePower',
      title: t('inverters.column.ratePower'),
      align: 'right',
      width: 110,
      render: (v: number | null) => (v ? formatPower(v) : MISSING),
    },
    {
      key: 'version',
      title: t('inverters.column.version'),
      width: 160,
      render: (_, row) =>
        [row.version.softVer, row.version.hmiVer].filter(Boolean).join(' / ') || MISSING,
    },
    {
      key: 'updateAt',
      dataIndex: 'updateAt',
      title: t('inverters.column.updateAt'),
      width: 240,
      // In the plant's zone, named (one rule for device times).
      render: (v: string, row) => formatPlantTime(v, row.timezone),
    },
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
            columns={columns}
            dataSource={list.data?.infos ?? []}
            loading={list.isFetching}
            scroll={{ x: 1600 }}
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
              showSizeChanger: true,
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
