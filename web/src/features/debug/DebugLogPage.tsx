import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  DatePicker,
  Empty,
  Flex,
  Input,
  Result,
  Segmented,
  Space,
  Table,
  Tag,
  Typography,
  type TableProps,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { rangePresets } from '@/shared/format/dateRanges';
import { MISSING } from '@/shared/format/number';
import { DEFAULT_LOG_QUERY, debugLogQuery, type DebugEntry, type DebugLogQuery } from './api';
import { statusColor } from './status';
import { FrameView } from './FrameView';

const text = (v: string | null | undefined) => (v && v.trim() ? v : MISSING);

/** Logging / Debug Log: every raw frame sent through the toolbox, with its reply. */
export default function DebugLogPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<DebugLogQuery>(DEFAULT_LOG_QUERY);
  const [sn, setSn] = useState('');
  const [user, setUser] = useState('');
  const list = useQuery(debugLogQuery(query));
  const update = (patch: Partial<DebugLogQuery>) => setQuery((q) => ({ ...q, page: 1, ...patch }));
  const filtered =
    query.sn !== '' || query.user !== '' || query.targetKind !== '' || query.sdate !== '';

  const columns: TableProps<DebugEntry>['columns'] = [
    {
      key: 'time',
      title: t('debug.log.time'),
      width: 190,
      render: (_, r) => dayjs(r.createAt).format('YYYY-MM-DD HH:mm:ss'),
    },
    { key: 'account', title: t('debug.log.account'), render: (_, r) => r.account },
    {
      key: 'sn',
      title: t('debug.log.sn'),
      render: (_, r) =>
        r.targetKind === 'inverter' ? (
          <Link to={`/device/inverter/${encodeURIComponent(r.sn)}`}>{r.sn}</Link>
        ) : (
          <Link to={`/device/gateway/${encodeURIComponent(r.sn)}`}>{r.sn}</Link>
        ),
    },
    { key: 'kind', title: t('debug.log.kind'), render: (_, r) => t(`debug.send.${r.targetKind}`) },
    { key: 'plant', title: t('debug.log.plant'), render: (_, r) => text(r.plantName) },
    {
      key: 'request',
      title: t('debug.log.request'),
      render: (_, r) => <Typography.Text code>{r.request}</Typography.Text>,
    },
    {
      key: 'reply',
      title: t('debug.log.reply'),
      render: (_, r) => (r.reply ? <Typography.Text code>{r.reply}</Typography.Text> : MISSING),
    },
    {
      key: 'status',
      title: t('debug.log.status'),
      render: (_, r) => <Tag color={statusColor(r.status)}>{t(`debug.status.${r.status}`)}</Tag>,
    },
    { key: 'message', title: t('debug.log.message'), render: (_, r) => text(r.message) },
  ];

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="debug-log-title">
          {t('debug.log.title')}
        </Typography.Title>
      }
    >
      <Flex gap={12} wrap justify="space-between" style={{ marginBottom: 16 }}>
        <Segmented<DebugLogQuery['targetKind']>
          value={query.targetKind}
          onChange={(targetKind) => update({ targetKind })}
          options={[
            { value: '', label: t('debug.log.all') },
            { value: 'inverter', label: t('debug.send.inverter') },
            { value: 'gateway', label: t('debug.send.gateway') },
          ]}
        />
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t('debug.log.sn')}
            aria-label={t('debug.log.sn')}
            value={sn}
            onChange={(e) => setSn(e.target.value)}
            onSearch={(v) => update({ sn: v })}
            style={{ width: 200 }}
            data-testid="debug-log-sn"
          />
          <Input.Search
            allowClear
            placeholder={t('debug.log.account')}
            aria-label={t('debug.log.account')}
            value={user}
            onChange={(e) => setUser(e.target.value)}
            onSearch={(v) => update({ user: v })}
            style={{ width: 200 }}
          />
          <DatePicker.RangePicker
            presets={rangePresets(t)}
            aria-label={t('debug.log.dates')}
            onChange={(range: [Dayjs | null, Dayjs | null] | null) =>
              update({
                sdate: range?.[0]?.format('YYYY-MM-DD') ?? '',
                edate: range?.[1]?.format('YYYY-MM-DD') ?? '',
              })
            }
          />
        </Space>
      </Flex>
      {list.isError ? (
        <Result
          status="warning"
          title={t('debug.log.loadFailed')}
          extra={<Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : (
        <Table<DebugEntry>
          rowKey="id"
          size="middle"
          scroll={{ x: 1200 }}
          loading={list.isFetching && !list.data}
          columns={columns}
          dataSource={list.data?.infos ?? []}
          data-testid="debug-log-table"
          expandable={{
            rowExpandable: (r) => r.reply !== null,
            expandedRowRender: (r) =>
              r.reply ? <FrameView hex={r.reply} direction="response" /> : null,
          }}
          locale={{
            emptyText: (
              <Empty description={filtered ? t('debug.log.noMatch') : t('debug.log.empty')} />
            ),
          }}
          pagination={{
            current: query.page,
            pageSize: query.limit,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            onChange: (page, limit) => setQuery((q) => ({ ...q, page, limit })),
          }}
        />
      )}
    </Card>
  );
}
