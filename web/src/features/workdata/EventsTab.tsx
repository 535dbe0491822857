import { DownloadOutlined } from '@ant-design/icons';
import {
  App,
  Badge,
  Button,
  DatePicker,
  Flex,
  Input,
  Select,
  Typography,
  type TableProps,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PlantTime } from '@/shared/devices/PlantTime';
import { rangePresets } from '@/shared/format/dateRanges';
import { MISSING } from '@/shared/format/number';
import { useDraft } from '@/shared/hooks/useDraft';
import { isApiError } from '@/shared/http';
import { PagedTable } from '@/shared/list/PagedTable';
import { useListQuery } from '@/shared/list/useListQuery';
import { eventStatusBadge, severityColor } from '@/shared/ui/status';
import { useNarrow } from '@/shared/ui/useNarrow';
import {
  downloadEvents,
  EVENT_FILTERS,
  eventsQuery,
  type EventFilter,
  type EventItem,
  type EventKind,
} from './api';
import { PlantPicker } from './PlantPicker';

const SEVERITIES = ['fault', 'warning', 'info'] as const;
const nowrap = { style: { whiteSpace: 'nowrap' as const } };

// one query-options factory per kind, made once (useListQuery wants a stable function)
const QUERIES: Record<EventKind, ReturnType<typeof eventsQuery>> = {
  inverter: eventsQuery('inverter'),
  battery: eventsQuery('battery'),
};

/** Inverter or battery events of the caller's plants: filters, paging and the .xlsx download. */
export function EventsTab({ kind, mayExport }: { kind: EventKind; mayExport: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const phone = useNarrow();
  const { query, list, update, setPage, filtered } = useListQuery(EVENT_FILTERS, QUERIES[kind], {
    limit: 20,
  });
  const [sn, setSn] = useDraft(query.sn);
  const [downloading, setDownloading] = useState(false);
  const w = (px: number) => (phone ? '100%' : px);
  const range: [Dayjs, Dayjs] | null =
    query.sdate && query.edate ? [dayjs(query.sdate), dayjs(query.edate)] : null;

  const download = () => {
    setDownloading(true);
    downloadEvents(kind, query)
      .catch((e: unknown) =>
        message.error(isApiError(e) ? e.message : t('workdata.downloadFailed')),
      )
      .finally(() => setDownloading(false));
  };

  const severity = (e: EventItem) => (
    <Badge
      color={severityColor(e.severity)}
      text={t(`workdata.severity.${e.severity}`, { defaultValue: e.severity })}
      data-testid="wd-event-severity"
      data-severity={e.severity}
    />
  );
  const status = (e: EventItem) => (
    <Badge status={eventStatusBadge(e.status)} text={t(`workdata.status.${e.status}`)} />
  );

  const columns: TableProps<EventItem>['columns'] = phone
    ? [
        {
          key: 'event',
          title: t('workdata.events.event'),
          render: (_, e) => (
            <Flex vertical gap={2} data-testid="wd-event-card">
              <Flex justify="space-between" gap={8} wrap>
                {severity(e)}
                {status(e)}
              </Flex>
              <span>
                <Typography.Text strong data-testid="wd-event-code">
                  {e.code}
                </Typography.Text>{' '}
                {e.meaning ?? ''}
              </span>
              <Typography.Text type="secondary">
                {e.sn ?? MISSING} · {e.plantName ?? MISSING}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {e.occurTime}
                {e.recoverTime ? ` → ${e.recoverTime}` : ''}
                {e.timezone ? ` (${e.timezone})` : ''}
              </Typography.Text>
            </Flex>
          ),
        },
      ]
    : [
        {
          key: 'occurTime',
          title: t('workdata.events.occurTime'),
          width: 180,
          render: (_, e) => <PlantTime value={e.occurTime} zone={e.timezone} />,
        },
        {
          key: 'severity',
          title: t('workdata.events.severity'),
          width: 110,
          render: (_, e) => severity(e),
        },
        {
          key: 'code',
          title: t('workdata.events.code'),
          width: 80,
          render: (_, e) => <span data-testid="wd-event-code">{e.code}</span>,
        },
        {
          key: 'meaning',
          title: t('workdata.events.meaning'),
          ellipsis: { showTitle: true },
          render: (_, e) => e.meaning ?? MISSING,
        },
        {
          key: 'sn',
          title: t('workdata.events.device'),
          onCell: () => nowrap,
          render: (_, e) => e.sn ?? MISSING,
        },
        {
          key: 'plant',
          title: t('workdata.events.plant'),
          responsive: ['xl'],
          render: (_, e) => e.plantName ?? MISSING,
        },
        {
          key: 'status',
          title: t('workdata.events.status'),
          width: 110,
          render: (_, e) => status(e),
        },
        {
          key: 'recoverTime',
          title: t('workdata.events.recoverTime'),
          width: 180,
          responsive: ['lg'],
          render: (_, e) =>
            e.recoverTime ? <PlantTime value={e.recoverTime} zone={e.timezone} /> : MISSING,
        },
      ];

  return (
    <Flex vertical gap={16} data-testid={`${kind}-events-tab`}>
      <Flex gap={12} wrap>
        <PlantPicker
          value={query.plantId}
          onChange={(plantId) => update({ plantId })}
          width={w(220)}
          testId={`${kind}-event-plant`}
        />
        <Input.Search
          allowClear
          placeholder={t('workdata.filter.sn')}
          aria-label={t('workdata.filter.sn')}
          value={sn}
          onChange={(e) => setSn(e.target.value)}
          onSearch={(v) => update({ sn: v })}
          style={{ width: w(200) }}
          data-testid={`${kind}-event-sn`}
        />
        <Select<EventFilter['severity']>
          aria-label={t('workdata.events.severity')}
          value={query.severity}
          onChange={(v) => update({ severity: v })}
          options={[
            { value: '', label: t('workdata.filter.anySeverity') },
            ...SEVERITIES.map((s) => ({ value: s, label: t(`workdata.severity.${s}`) })),
          ]}
          style={{ width: w(160) }}
          data-testid={`${kind}-event-severity`}
        />
        <DatePicker.RangePicker
          aria-label={t('workdata.filter.range')}
          presets={rangePresets(t)}
          value={range}
          onChange={(v) =>
            update({
              sdate: v?.[0]?.format('YYYY-MM-DD') ?? '',
              edate: v?.[1]?.format('YYYY-MM-DD') ?? '',
            })
          }
          style={phone ? { width: '100%' } : undefined}
          data-testid={`${kind}-event-range`}
        />
        {mayExport && (
          <Button
            icon={<DownloadOutlined />}
            loading={downloading}
            onClick={download}
            block={phone}
            data-testid={`${kind}-events-download`}
          >
            {t('workdata.download')}
          </Button>
        )}
      </Flex>
      <div style={{ overflowX: 'auto' }}>
        <PagedTable<EventItem>
          list={list}
          page={query.page}
          limit={query.limit}
          onPage={setPage}
          columns={columns}
          testId={`${kind}-event-table`}
          errorTestId={`${kind}-events-error`}
          loadFailed={t('workdata.loadFailed')}
          empty={filtered ? t('workdata.events.emptyFiltered') : t('workdata.events.empty')}
          total={(total) => t('workdata.total', { total })}
          compact={phone}
        />
      </div>
    </Flex>
  );
}
