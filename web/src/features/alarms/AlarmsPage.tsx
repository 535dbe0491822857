import './texts';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Select, Table, Typography, type TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useListQuery } from '@/shared/list/useListQuery';
import { Problem } from '@/shared/ui/Problem';
import { useNarrow } from '@/shared/ui/useNarrow';
import { AckDialog } from './AckDialog';
import {
  ALARM_FILTERS,
  ALARM_PAGE_SIZE,
  caseListQuery,
  KINDS,
  plantOptionsQuery,
  SEVERITIES,
  STATES,
  type AlarmCase,
  type AlarmFilter,
} from './api';
import { CaseDrawer } from './CaseDrawer';
import { subjectOf, valueOf, when } from './format';
import { SeverityBadge, StateTag } from './labels';

/**
 * /alarms: the alarm engine's cases on the caller's plants, live ones first (alarms before
 * warnings, the oldest first), with filters, acknowledging and each case's history.
 */
export default function AlarmsPage() {
  const { t } = useTranslation();
  const phone = useNarrow();
  const {
    query: filter,
    list,
    update,
    setPage,
    filtered,
  } = useListQuery(ALARM_FILTERS, caseListQuery, { limit: ALARM_PAGE_SIZE });
  const [plantSearch, setPlantSearch] = useState('');
  const plants = useQuery(plantOptionsQuery(plantSearch));
  const [open, setOpen] = useState<AlarmCase | null>(null);
  // `?case=<id>`: the link an alarm webhook carries opens that case.
  const [search, setSearch] = useSearchParams();
  const linked = Number(search.get('case')) || null;
  const closeDrawer = () => {
    setOpen(null);
    if (linked !== null) {
      const next = new URLSearchParams(search);
      next.delete('case');
      setSearch(next, { replace: true });
    }
  };
  const [ack, setAck] = useState<AlarmCase | null>(null);
  const w = (px: number) => (phone ? '100%' : px);

  const ackButton = (c: AlarmCase) =>
    c.state === 'open' ? (
      <Button size="small" onClick={() => setAck(c)} data-testid="alarm-ack">
        {t('alarms.acknowledge')}
      </Button>
    ) : null;
  const kindLink = (c: AlarmCase) => (
    <Typography.Link onClick={() => setOpen(c)} data-testid="alarm-open">
      {t(`alarms.kind.${c.kind}`)}
    </Typography.Link>
  );

  const columns: TableProps<AlarmCase>['columns'] = [
    {
      key: 'severity',
      title: t('alarms.column.severity'),
      width: 110,
      render: (_, c) => <SeverityBadge severity={c.severity} t={t} />,
    },
    { key: 'kind', title: t('alarms.column.kind'), width: 170, render: (_, c) => kindLink(c) },
    { key: 'plant', title: t('alarms.column.plant'), render: (_, c) => c.plantName },
    { key: 'device', title: t('alarms.column.device'), render: (_, c) => subjectOf(c, t) },
    {
      key: 'since',
      title: t('alarms.column.since'),
      width: 150,
      render: (_, c) => when(c.openedAt),
    },
    { key: 'value', title: t('alarms.column.value'), width: 120, render: (_, c) => valueOf(c, t) },
    {
      key: 'state',
      title: t('alarms.column.state'),
      width: 130,
      render: (_, c) => <StateTag state={c.state} t={t} />,
    },
    { key: 'action', width: 130, render: (_, c) => ackButton(c) },
  ];

  const cards: TableProps<AlarmCase>['columns'] = [
    {
      key: 'case',
      title: t('alarms.title'),
      render: (_, c) => (
        <Flex vertical gap={4} data-testid="alarm-card">
          <Flex justify="space-between" gap={8} wrap>
            <SeverityBadge severity={c.severity} t={t} />
            <StateTag state={c.state} t={t} />
          </Flex>
          <span>
            {kindLink(c)} · {valueOf(c, t)}
          </span>
          <Typography.Text type="secondary">
            {c.plantName} · {subjectOf(c, t)}
          </Typography.Text>
          <Flex justify="space-between" align="center" gap={8} wrap>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('alarms.sinceTime', { time: when(c.openedAt) })}
            </Typography.Text>
            {ackButton(c)}
          </Flex>
        </Flex>
      ),
    },
  ];

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="alarms-title">
          {t('alarms.title')}
        </Typography.Title>
      }
    >
      <Flex gap={12} wrap style={{ marginBottom: 16 }}>
        <Select<number>
          allowClear
          showSearch={{ filterOption: false, onSearch: setPlantSearch }}
          placeholder={t('alarms.filter.plant')}
          aria-label={t('alarms.filter.plant')}
          value={filter.plantId ?? undefined}
          onChange={(v) => update({ plantId: v ?? null })}
          options={(plants.data?.infos ?? []).map((p) => ({ value: p.id, label: p.name }))}
          style={{ width: w(220) }}
          data-testid="alarm-plant"
        />
        <Select<AlarmFilter['state']>
          aria-label={t('alarms.column.state')}
          value={filter.state}
          onChange={(state) => update({ state })}
          options={[
            { value: '', label: t('alarms.filter.anyState') },
            ...STATES.map((s) => ({ value: s, label: t(`alarms.state.${s}`) })),
          ]}
          style={{ width: w(170) }}
          data-testid="alarm-state-filter"
        />
        <Select<AlarmFilter['kind']>
          aria-label={t('alarms.column.kind')}
          value={filter.kind}
          onChange={(kind) => update({ kind })}
          options={[
            { value: '', label: t('alarms.filter.anyKind') },
            ...KINDS.map((k) => ({ value: k, label: t(`alarms.kind.${k}`) })),
          ]}
          style={{ width: w(210) }}
          data-testid="alarm-kind-filter"
        />
        <Select<AlarmFilter['severity']>
          aria-label={t('alarms.column.severity')}
          value={filter.severity}
          onChange={(severity) => update({ severity })}
          options={[
            { value: '', label: t('alarms.filter.anySeverity') },
            ...SEVERITIES.map((s) => ({ value: s, label: t(`alarms.severity.${s}`) })),
          ]}
          style={{ width: w(160) }}
          data-testid="alarm-severity-filter"
        />
      </Flex>
      {list.isError ? (
        <Problem
          title={t('alarms.loadFailed')}
          testId="alarms-error"
          extra={<Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : (
        <Table<AlarmCase>
          rowKey="id"
          data-testid="alarm-table"
          size={phone ? 'small' : 'middle'}
          columns={phone ? cards : columns}
          dataSource={list.data?.infos ?? []}
          loading={list.isFetching}
          scroll={phone ? undefined : { x: 960 }}
          locale={{
            emptyText: (
              <Empty description={filtered ? t('alarms.emptyFiltered') : t('alarms.empty')} />
            ),
          }}
          pagination={{
            current: filter.page,
            pageSize: filter.limit,
            total: list.data?.total ?? 0,
            showSizeChanger: !phone,
            showTotal: (total) => t('alarms.total', { total }),
          }}
          onChange={(p) => setPage(p.current ?? 1, p.pageSize)}
        />
      )}
      {(open || linked !== null) && (
        <CaseDrawer id={open?.id ?? linked ?? 0} alarm={open ?? undefined} onClose={closeDrawer} />
      )}
      {ack && <AckDialog alarm={ack} onClose={() => setAck(null)} />}
    </Card>
  );
}
