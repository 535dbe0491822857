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
import { formatNumber, MISSING } from '@/shared/format/number';
import { useCurrentUser } from '@/shared/user';
import {
  DEFAULT_QUERY,
  stationCountsQuery,
  stationListQuery,
  plantOptionsQuery,
  type StationQuery,
  type StationRow,
} from './api';
import { deviceStatus, DEVICE_STATUSES } from './status';
import { formatTemp, type TempUnit } from './units';

const localTime = (v: string | null | undefined) =>
  v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : MISSING;
const withUnit = (v: string | number | null, unit: string) =>
  v === null ? MISSING : `${formatNumber(v)} ${unit}`;

/** device/weather: status counts, filters and the paged list of weather stations. */
export default function WeatherListPage() {
  const { t } = useTranslation();
  const temp: TempUnit = useCurrentUser().data?.tempUnit ?? 'C';
  const [query, setQuery] = useState<StationQuery>(DEFAULT_QUERY);
  const [sn, setSn] = useState('');
  const list = useQuery(stationListQuery(query));
  const counts = useQuery(stationCountsQuery);
  const plants = useQuery(plantOptionsQuery);
  const update = (patch: Partial<StationQuery>) => setQuery((q) => ({ ...q, page: 1, ...patch }));
  const filtered = query.status !== -1 || query.sn !== '' || query.plantId !== null;

  const columns: TableProps<StationRow>['columns'] = [
    {
      key: 'sn',
      title: t('weather.column.sn'),
      fixed: 'left',
      width: 160,
      render: (_, row) => (
        <Link to={`/device/weather/${encodeURIComponent(row.sn)}`} data-testid="weather-sn">
          {row.sn}
        </Link>
      ),
    },
    {
      key: 'alias',
      dataIndex: 'alias',
      title: t('weather.column.alias'),
      ellipsis: true,
      render: (v: string) => v || MISSING,
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('weather.column.status'),
      width: 110,
      render: (v: number) => {
        const s = deviceStatus(v);
        return <Badge color={s.color} text={t(`weather.status.${s.key}`)} />;
      },
    },
    {
      key: 'plant',
      title: t('weather.column.plant'),
      ellipsis: true,
      render: (_, row) => row.plant?.name ?? MISSING,
    },
    {
      key: 'gsn',
      dataIndex: 'gsn',
      title: t('weather.column.gateway'),
      width: 140,
      render: (v: string | null) => v ?? MISSING,
    },
    {
      key: 'irradiance',
      dataIndex: 'irradiance',
      title: t('weather.column.irradiance'),
      align: 'right',
      width: 130,
      render: (v: string | null) => withUnit(v, 'W/m²'),
    },
    {
      key: 'ambientTemp',
      dataIndex: 'ambientTemp',
      title: t('weather.column.ambientTemp'),
      align: 'right',
      width: 130,
      render: (v: string | null) => formatTemp(v, temp),
    },
    {
      key: 'moduleTemp',
      dataIndex: 'moduleTemp',
      title: t('weather.column.moduleTemp'),
      align: 'right',
      width: 130,
      render: (v: string | null) => formatTemp(v, temp),
    },
    {
      key: 'updateAt',
      dataIndex: 'updateAt',
      title: t('weather.column.updateAt'),
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
              data-testid={`weather-count-${c.key}`}
              style={query.status === c.value ? { borderColor: '#00cc00' } : undefined}
            >
              <Statistic
                title={t(c.key === 'total' ? 'weather.count.total' : `weather.status.${c.key}`)}
                value={counts.data ? counts.data[c.key as keyof typeof counts.data] : MISSING}
              />
            </Card>
          </Col>
        ))}
      </Row>
      <Card
        title={
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('weather.title')}
          </Typography.Title>
        }
      >
        <Flex gap={12} wrap style={{ marginBottom: 16 }}>
          <Select
            aria-label={t('weather.filter.status')}
            style={{ width: 160 }}
            value={query.status}
            onChange={(status: number) => update({ status })}
            options={[
              { value: -1, label: t('weather.filter.anyStatus') },
              ...DEVICE_STATUSES.map((s) => ({
                value: s.value,
                label: t(`weather.status.${s.key}`),
              })),
            ]}
          />
          <Select
            aria-label={t('weather.filter.plant')}
            style={{ width: 220 }}
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t('weather.filter.plant')}
            value={query.plantId ?? undefined}
            onChange={(plantId?: number) => update({ plantId: plantId ?? null })}
            options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
          <Input.Search
            aria-label={t('weather.filter.sn')}
            style={{ width: 220 }}
            allowClear
            placeholder={t('weather.filter.sn')}
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
              {t('weather.filter.reset')}
            </Button>
          )}
        </Flex>
        {list.isError ? (
          <Result
            status="warning"
            title={t('weather.loadFailed')}
            extra={<Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
          />
        ) : (
          <Table<StationRow>
            rowKey="id"
            size="middle"
            data-testid="weather-table"
            loading={list.isFetching}
            columns={columns}
            dataSource={list.data?.infos ?? []}
            scroll={{ x: 1200 }}
            locale={{
              emptyText: (
                <Empty description={filtered ? t('weather.emptyFiltered') : t('weather.empty')} />
              ),
            }}
            pagination={{
              current: query.page,
              pageSize: query.limit,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              showTotal: (total) => t('weather.total', { total }),
              onChange: (page, limit) => setQuery((q) => ({ ...q, page, limit })),
            }}
          />
        )}
      </Card>
    </Flex>
  );
}
