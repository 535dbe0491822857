import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  DatePicker,
  Empty,
  Flex,
  Input,
  Result,
  Select,
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
import {
  auditQuery,
  DEFAULT_AUDIT_QUERY,
  KNOWN_ACTIONS,
  outcome,
  outcomeColor,
  targetPath,
  type AuditEntry,
  type AuditQuery,
} from './api';

/** The changed values or the command kind, compactly. */
function detailText(e: AuditEntry): string {
  const params = e.detail?.params;
  if (params && typeof params === 'object')
    return Object.entries(params as Record<string, unknown>)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(', ');
  return MISSING;
}

/** Logging / Maintenance log: who did what to which device, when, and how it ended. */
export default function AuditLogPage() {
  const { t, i18n } = useTranslation();
  const [query, setQuery] = useState<AuditQuery>(DEFAULT_AUDIT_QUERY);
  const [target, setTarget] = useState('');
  const [user, setUser] = useState('');
  const list = useQuery(auditQuery(query));
  const update = (patch: Partial<AuditQuery>) => setQuery((q) => ({ ...q, page: 1, ...patch }));
  const filtered = Object.entries(query).some(
    ([k, v]) => !['page', 'limit'].includes(k) && v !== '',
  );
  const actionLabel = (a: string) =>
    i18n.exists(`audit.action.${a}`) ? t(`audit.action.${a}`) : a;

  const columns: TableProps<AuditEntry>['columns'] = [
    {
      key: 'time',
      title: t('audit.column.time'),
      width: 180,
      render: (_, r) => dayjs(r.createAt).format('YYYY-MM-DD HH:mm:ss'),
    },
    { key: 'account', title: t('audit.column.account'), render: (_, r) => r.account },
    {
      key: 'action',
      title: t('audit.column.action'),
      render: (_, r) => <span data-testid="audit-action">{actionLabel(r.action)}</span>,
    },
    {
      key: 'target',
      title: t('audit.column.target'),
      render: (_, r) => {
        const to = targetPath(r);
        return to ? <Link to={to}>{r.target}</Link> : r.target;
      },
    },
    {
      key: 'plant',
      title: t('audit.column.plant'),
      render: (_, r) => r.plantName ?? MISSING,
    },
    {
      key: 'detail',
      title: t('audit.column.detail'),
      render: (_, r) => (
        <Typography.Text ellipsis={{ tooltip: true }} style={{ maxWidth: 320 }}>
          {detailText(r)}
        </Typography.Text>
      ),
    },
    {
      key: 'result',
      title: t('audit.column.result'),
      render: (_, r) => {
        const s = outcome(r);
        return (
          <Tag color={outcomeColor(s)} data-testid="audit-result">
            {i18n.exists(`audit.result.${s}`) ? t(`audit.result.${s}`) : s}
          </Tag>
        );
      },
    },
  ];

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="audit-title">
          {t('audit.title')}
        </Typography.Title>
      }
    >
      <Flex gap={12} wrap justify="space-between" style={{ marginBottom: 16 }}>
        <Select
          style={{ minWidth: 200 }}
          value={query.action}
          onChange={(action: string) => update({ action })}
          aria-label={t('audit.column.action')}
          options={[
            { value: '', label: t('audit.allActions') },
            ...KNOWN_ACTIONS.map((a) => ({ value: a, label: actionLabel(a) })),
          ]}
        />
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t('audit.column.target')}
            aria-label={t('audit.column.target')}
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            onSearch={(v) => update({ target: v })}
            style={{ width: 200 }}
          />
          <Input.Search
            allowClear
            placeholder={t('audit.column.account')}
            aria-label={t('audit.column.account')}
            value={user}
            onChange={(e) => setUser(e.target.value)}
            onSearch={(v) => update({ user: v })}
            style={{ width: 200 }}
          />
          <DatePicker.RangePicker
            presets={rangePresets(t)}
            aria-label={t('audit.dates')}
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
          title={t('audit.loadFailed')}
          extra={<Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : (
        <Table<AuditEntry>
          rowKey="id"
          size="middle"
          scroll={{ x: 1100 }}
          loading={list.isFetching && !list.data}
          columns={columns}
          dataSource={list.data?.infos ?? []}
          data-testid="audit-table"
          locale={{
            emptyText: <Empty description={filtered ? t('audit.noMatch') : t('audit.empty')} />,
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
