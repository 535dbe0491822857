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
  Tag,
  Typography,
  type TableProps,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatCompact, formatNumber, MISSING } from '@/shared/format/number';
import {
  DEFAULT_QUERY,
  meterCountsQuery,
  meterListQuery,
  plantOptionsQuery,
  type MeterQuery,
  type MeterRow,
} from './api';
import { energyText } from './energy';
import { deviceStatus, DEVICE_STATUSES } from './status';

const localTime = (v: string | null | undefined) =>
  v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : MISSING;
const withUnit = (v: string | number | null, unit: string) =>
  v === null ? MISSING : `${formatNumber(v)} ${unit}`;

/** device/meter: status counts, filters and the paged list of meters. */
export default function MeterListPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<MeterQuery>(DEFAULT_QUERY);
  const [sn, setSn] = useState('');
  const list = useQuery(meterListQuery(query));
  const counts = useQuery(meterCountsQuery);
  const plants = useQuery(plantOptionsQuery);
  const update = (patch: Partial<MeterQuery>) => setQuery((q) => ({ ...q, page: 1, ...patch }));
  const filtered = query.status !== -1 || query.sn !== '' || query.plantId !== null;

  const columns: TableProps<MeterRow>['columns'] = [
    {
      key: 'sn',
      title: t('meters.column.sn'),
      fixed: 'left',
      width: 160,
      render: (_, row) => (
        <Link to={`/device/meter/${encodeURIComponent(row.sn)}`} data-testid="meter-sn">
          {row.sn}
        </Link>
      ),
    },
    {
      key: 'alias',
      title: t('meters.column.alias'),
      ellipsis: true,
      render: (_, row) => (
        <>
          {row.alias || MISSING}
          {row.master && (
            <Tag color="green" style={{ marginInlineStart: 8 }}>
              {t('meters.master')}
            </Tag>
          )}
        </>
      ),
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('meters.column.status'),
      width: 110,
      render: (v: number) => {
        const s = deviceStatus(v);
        return <Badge color={s.color} text={t(`meters.status.${s.key}`)} />;
      },
    },
    {
      key: 'plant',
      title: t('meters.column.plant'),
      ellipsis: true,
      render: (_, row) => row.plant?.name ?? MISSING,
    },
    {
      key: 'gsn',
      dataIndex: 'gsn',
      title: t('meters.column.gateway'),
      width: 140,
      render: (v: string | null) => v ?? MISSING,
    },
    {
      key: 'power',
      dataIndex: 'power',
      title: t('meters.column.power'),
      align: 'right',
      width: 110,
      render: (v: number | null) => formatCompact(v, 'W'),
    },
    {
      key: 'voltage',
      dataIndex: 'voltage',
      title: t('meters.column.voltage'),
      align: 'right',
      width: 100,
      render: (v: string | null) => withUnit(v, 'V'),
    },
    {
      key: 'frequency',
      dataIndex: 'frequency',
      title: t('meters.column.frequency'),
      align: 'right',
      width: 100,
      render: (v: number | null) => withUnit(v, 'Hz'),
    },
    {
      key: 'totalImport',
      dataIndex: 'totalImport',
      title: t('meters.column.totalImport'),
      align: 'right',
      width: 130,
      render: (v: string | null) => energyText(v),
    },
    {
      key: 'totalExport',
      dataIndex: 'totalExport',
      title: t('meters.column.totalExport'),
      align: 'right',
      width: 130,
      render: (v: string | null) => energyText(v),
    },
    {
      key: 'updateAt',
      dataIndex: 'updateAt',
      title: t('meters.column.updateAt'),
      width: 170,
      render: localTime,
    },
  ];

  const statusCards = [
    { key: 'total', value: -1 },
    ...DEVICE_STATUSES.map((s) => ({ key: s.key, value: s.value })),
  ];

  return (
    <Flex vertical gap={16}>
      <Row gutter={[12, 12]}>
        {statusCards.map((c) => (
          <Col key={c.key} xs={12} sm={8} lg={4}>
            <Card
              size="small"
              hoverable
              onClick={() => update({ status: c.value })}
              data-testid={`meter-count-${c.key}`}
              style={query.status === c.value ? { borderColor: '#00cc00' } : undefined}
            >
              <Statistic
                title={t(c.key === 'total' ? 'meters.count.total' : `meters.status.${c.key}`)}
                value={counts.data ? counts.data[c.key as keyof typeof counts.data] : MISSING}
              />
            </Card>
          </Col>
        ))}
      </Row>
      <Card
        title={
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('meters.title')}
          </Typography.Title>
        }
      >
        <Flex gap={12} wrap style={{ marginBottom: 16 }}>
          <Select
            aria-label={t('meters.filter.status')}
            style={{ width: 160 }}
            value={query.status}
            onChange={(status: number) => update({ status })}
            options={[
              { value: -1, label: t('meters.filter.anyStatus') },
              ...DEVICE_STATUSES.map((s) => ({
                value: s.value,
                label: t(`meters.status.${s.key}`),
              })),
            ]}
          />
          <Select
            aria-label={t('meters.filter.plant')}
            style={{ width: 220 }}
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t('meters.filter.plant')}
            value={query.plantId ?? undefined}
            onChange={(plantId?: number) => update({ plantId: plantId ?? null })}
            options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
          <Input.Search
            aria-label={t('meters.filter.sn')}
            style={{ width: 220 }}
            allowClear
            placeholder={t('meters.filter.sn')}
            value={sn}
            onChange={(e) => setSn(e.target.value)}
            onSearch={(v) => update({ sn: v.trim() })}
          />
          {filtered && (
            <Button
              onClick={() => {
                setSn('');
                setQuery(DEFAULT_QUERY);
              }}
            >
              {t('meters.filter.reset')}
            </Button>
          )}
        </Flex>
        {list.isError ? (
          <Result
            status="warning"
            title={t('meters.loadFailed')}
            extra={<Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
          />
        ) : (
          <Table<MeterRow>
            rowKey="id"
            size="middle"
            data-testid="meter-table"
            loading={list.isFetching}
            columns={columns}
            dataSource={list.data?.infos ?? []}
            scroll={{ x: 1400 }}
            locale={{
              emptyText: (
                <Empty description={filtered ? t('meters.emptyFiltered') : t('meters.empty')} />
              ),
            }}
            pagination={{
              current: query.page,
              pageSize: query.limit,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              showTotal: (total) => t('meters.total', { total }),
              onChange: (page, limit) => setQuery((q) => ({ ...q, page, limit })),
            }}
          />
        )}
      </Card>
    </Flex>
  );
}
