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
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatCompact, formatNumber, MISSING } from '@/shared/format/number';
import { useCurrentUser } from '@/shared/user';
import {
  batteryCountsQuery,
  batteryListQuery,
  DEFAULT_QUERY,
  plantOptionsQuery,
  type BatteryQuery,
  type BatteryRow,
} from './api';
import { formatTemp, type TempUnit } from './cells';
import { deviceStatus, DEVICE_STATUSES } from './status';

const localTime = (v: string | null | undefined) =>
  v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : MISSING;
const withUnit = (v: string | null, unit: string) =>
  v === null ? MISSING : `${formatNumber(v)} ${unit}`;

/** device/battery: status counts, filters and the paged list of battery stacks. */
export default function BatteryListPage() {
  const { t } = useTranslation();
  const temp: TempUnit = useCurrentUser().data?.tempUnit ?? 'C';
  const [query, setQuery] = useState<BatteryQuery>(DEFAULT_QUERY);
  const [sn, setSn] = useState('');
  const list = useQuery(batteryListQuery(query));
  const counts = useQuery(batteryCountsQuery);
  const plants = useQuery(plantOptionsQuery);
  const update = (patch: Partial<BatteryQuery>) => setQuery((q) => ({ ...q, page: 1, ...patch }));
  const filtered = query.status !== -1 || query.sn !== '' || query.plantId !== null;

  const columns: TableProps<BatteryRow>['columns'] = [
    {
      key: 'sn',
      title: t('batteries.column.sn'),
      fixed: 'left',
      width: 150,
      render: (_, row) => (
        <Link to={`/device/battery/${encodeURIComponent(row.sn)}`} data-testid="battery-sn">
          {row.sn}
        </Link>
      ),
    },
    {
      key: 'alias',
      dataIndex: 'alias',
      title: t('batteries.column.alias'),
      ellipsis: true,
      render: (v: string) => v || MISSING,
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('batteries.column.status'),
      width: 110,
      render: (v: number) => {
        const s = deviceStatus(v);
        return <Badge color={s.color} text={t(`batteries.status.${s.key}`)} />;
      },
    },
    {
      key: 'plant',
      title: t('batteries.column.plant'),
      ellipsis: true,
      render: (_, row) => row.plant?.name ?? MISSING,
    },
    {
      key: 'gsn',
      dataIndex: 'gsn',
      title: t('batteries.column.gateway'),
      width: 140,
      render: (v: string | null) => v ?? MISSING,
    },
    {
      key: 'soc',
      dataIndex: 'soc',
      title: t('batteries.column.soc'),
      align: 'right',
      width: 80,
      render: (v: string | null) => withUnit(v, '%'),
    },
    {
      key: 'soh',
      dataIndex: 'soh',
      title: t('batteries.column.soh'),
      align: 'right',
      width: 80,
      render: (v: string | null) => withUnit(v, '%'),
    },
    {
      key: 'voltage',
      dataIndex: 'voltage',
      title: t('batteries.column.voltage'),
      align: 'right',
      width: 100,
      render: (v: string | null) => withUnit(v, 'V'),
    },
    {
      key: 'current',
      dataIndex: 'current',
      title: t('batteries.column.current'),
      align: 'right',
      width: 100,
      render: (v: string | null) => withUnit(v, 'A'),
    },
    {
      key: 'power',
      dataIndex: 'power',
      title: t('batteries.column.power'),
      align: 'right',
      width: 100,
      render: (v: number | null) => formatCompact(v, 'W'),
    },
    {
      key: 'temp',
      dataIndex: 'temp',
      title: t('batteries.column.temp'),
      align: 'right',
      width: 100,
      render: (v: string | null) => formatTemp(v, temp),
    },
    {
      key: 'cycles',
      dataIndex: 'cycles',
      title: t('batteries.column.cycles'),
      align: 'right',
      width: 80,
      render: (v: number | null) => formatNumber(v),
    },
    {
      key: 'packCount',
      dataIndex: 'packCount',
      title: t('batteries.column.packs'),
      align: 'right',
      width: 80,
    },
    {
      key: 'updateAt',
      dataIndex: 'updateAt',
      title: t('batteries.column.updateAt'),
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
              data-testid={`battery-count-${c.key}`}
              style={query.status === c.value ? { borderColor: '#00cc00' } : undefined}
            >
              <Statistic
                title={t(c.key === 'total' ? 'batteries.count.total' : `batteries.status.${c.key}`)}
                value={counts.data ? counts.data[c.key as keyof typeof counts.data] : MISSING}
              />
            </Card>
          </Col>
        ))}
      </Row>
      <Card
        title={
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('batteries.title')}
          </Typography.Title>
        }
      >
        <Flex gap={12} wrap style={{ marginBottom: 16 }}>
          <Select
            aria-label={t('batteries.filter.status')}
            style={{ width: 160 }}
            value={query.status}
            onChange={(status: number) => update({ status })}
            options={[
              { value: -1, label: t('batteries.filter.anyStatus') },
              ...DEVICE_STATUSES.map((s) => ({
                value: s.value,
                label: t(`batteries.status.${s.key}`),
              })),
            ]}
          />
          <Select
            aria-label={t('batteries.filter.plant')}
            style={{ width: 220 }}
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t('batteries.filter.plant')}
            value={query.plantId ?? undefined}
            onChange={(plantId?: number) => update({ plantId: plantId ?? null })}
            options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
          <Input.Search
            aria-label={t('batteries.filter.sn')}
            style={{ width: 220 }}
            allowClear
            placeholder={t('batteries.filter.sn')}
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
              {t('batteries.filter.reset')}
            </Button>
          )}
        </Flex>
        {list.isError ? (
          <Result
            status="warning"
            title={t('batteries.loadFailed')}
            extra={<Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
          />
        ) : (
          <Table<BatteryRow>
            rowKey="id"
            size="middle"
            data-testid="battery-table"
            loading={list.isFetching}
            columns={columns}
            dataSource={list.data?.infos ?? []}
            scroll={{ x: 1500 }}
            locale={{
              emptyText: (
                <Empty
                  description={filtered ? t('batteries.emptyFiltered') : t('batteries.empty')}
                />
              ),
            }}
            pagination={{
              current: query.page,
              pageSize: query.limit,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              showTotal: (total) => t('batteries.total', { total }),
              onChange: (page, limit) => setQuery((q) => ({ ...q, page, limit })),
            }}
          />
        )}
      </Card>
    </Flex>
  );
}
