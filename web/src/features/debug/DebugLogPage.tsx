import { Segmented, Tag, Typography, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MISSING } from '@/shared/format/number';
import { LogTable } from '@/shared/ui/LogTable';
import { DEBUG_LOG_FILTERS, debugLogQuery, type DebugEntry, type DebugLogQuery } from './api';
import { outcomeColor } from '@/shared/ui/status';
import { FrameView } from './FrameView';

const text = (v: string | null | undefined) => (v && v.trim() ? v : MISSING);

/** Logging / Debug Log: every raw frame sent through the toolbox, with its reply. */
export default function DebugLogPage() {
  const { t } = useTranslation();

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
      render: (_, r) => <Tag color={outcomeColor(r.status)}>{t(`debug.status.${r.status}`)}</Tag>,
    },
    { key: 'message', title: t('debug.log.message'), render: (_, r) => text(r.message) },
  ];

  return (
    <LogTable
      title={t('debug.log.title')}
      testId="debug-log"
      filters={DEBUG_LOG_FILTERS}
      queryOptions={debugLogQuery}
      kindFilter={(query, update) => (
        <Segmented<DebugLogQuery['targetKind']>
          value={query.targetKind}
          onChange={(targetKind) => update({ targetKind })}
          options={[
            { value: '', label: t('debug.log.all') },
            { value: 'inverter', label: t('debug.send.inverter') },
            { value: 'gateway', label: t('debug.send.gateway') },
          ]}
        />
      )}
      searches={[
        { field: 'sn', label: t('debug.log.sn'), testId: 'debug-log-sn' },
        { field: 'user', label: t('debug.log.account') },
      ]}
      datesLabel={t('debug.log.dates')}
      loadFailed={t('debug.log.loadFailed')}
      empty={t('debug.log.empty')}
      noMatch={t('debug.log.noMatch')}
      columns={columns}
      scrollX={1200}
      expandable={{
        rowExpandable: (r) => r.reply !== null,
        expandedRowRender: (r) =>
          r.reply ? <FrameView hex={r.reply} direction="response" /> : null,
      }}
    />
  );
}
