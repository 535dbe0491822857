import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  App,
  Badge,
  Button,
  Card,
  DatePicker,
  Dropdown,
  Empty,
  Flex,
  Grid,
  Input,
  Result,
  Select,
  Table,
  Tag,
  Tooltip,
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
import { useListQuery } from '@/shared/list/useListQuery';
import { useCan } from '@/shared/permissions';
import {
  DEVICE_TYPES,
  downloadEvents,
  EVENT_FILTERS,
  EVENT_PAGE_SIZE,
  eventListQuery,
  plantOptionsQuery,
  type EventFilter,
  type EventItem,
} from './api';
import { DeviceLink } from './cells';
import { DynamicDialog } from './DynamicDialog';
import { EventDrawer } from './EventDrawer';
import { eventStatusBadge, severityColor } from '@/shared/ui/status';
import { SEVERITIES } from './severity';

/**
 * device/event: events of the caller's plants with filters, a detail drawer and downloads. One
 * row per occurrence: an event several devices of a plant report at once is one row listing
 * its devices.
 */
export default function EventListPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const mayExport = useCan('event.export');
  const {
    query: filter,
    list,
    update,
    setPage,
    filtered,
  } = useListQuery(EVENT_FILTERS, eventListQuery, { limit: EVENT_PAGE_SIZE });
  const [sn, setSn] = useDraft(filter.sn);
  const [plantSearch, setPlantSearch] = useState('');
  const [open, setOpen] = useState<EventItem | null>(null);
  const [dynamic, setDynamic] = useState(false);
  const [downloading, setDownloading] = useState(false);
  // Phones get one stacked column instead of nine side by side.
  const narrow = !Grid.useBreakpoint().md;
  const w = (px: number) => (narrow ? '100%' : px);
  const plants = useQuery(plantOptionsQuery(plantSearch));
  const range: [Dayjs, Dayjs] | null =
    filter.sdate && filter.edate ? [dayjs(filter.sdate), dayjs(filter.edate)] : null;

  const download = (kind: 'inverter' | 'battery') => {
    setDownloading(true);
    downloadEvents(kind, filter)
      .catch((e: unknown) => message.error(isApiError(e) ? e.message : t('events.downloadFailed')))
      .finally(() => setDownloading(false));
  };

  const columns: TableProps<EventItem>['columns'] = [
    {
      key: 'occurTime',
      title: t('events.column.occurTime'),
      width: 170,
      render: (_, e) => <PlantTime value={e.occurTime} zone={e.timezone} />,
    },
    {
      key: 'severity',
      title: t('events.column.severity'),
      width: 110,
      render: (_, e) => (
        <Badge
          color={severityColor(e.severity)}
          text={t(`events.severity.${e.severity}`, { defaultValue: e.severity })}
          data-testid="event-severity-cell"
          data-severity={e.severity}
        />
      ),
    },
    {
      key: 'code',
      title: t('events.column.code'),
      width: 70,
      render: (_, e) => (
        <Typography.Link onClick={() => setOpen(e)} data-testid="event-code">
          {e.code}
        </Typography.Link>
      ),
    },
    {
      key: 'meaning',
      title: t('events.column.meaning'),
      width: 200,
      ellipsis: { showTitle: true },
      render: (_, e) => e.meaning ?? MISSING,
    },
    {
      key: 'device',
      title: t('events.column.device'),
      width: 140,
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      render: (_, e) => {
        const first = <DeviceLink sn={e.sn} deviceType={e.deviceType} />;
        const more = (e.deviceCount ?? 1) - 1;
        if (more <= 0) return first;
        const sns = (e.devices ?? []).map((d) => d.sn ?? MISSING).join(', ');
        return (
          <Flex gap={6} align="center" wrap>
            {first}
            <Tooltip title={sns}>
              <Tag
                style={{ cursor: 'pointer', marginInlineEnd: 0 }}
                onClick={() => setOpen(e)}
                data-testid="event-more-devices"
              >
                {t('events.moreDevices', { count: more })}
              </Tag>
            </Tooltip>
          </Flex>
        );
      },
    },
    {
      key: 'deviceType',
      title: t('events.column.deviceType'),
      // Below 1600 px the table would scroll inside itself; the drawer names the type.
      responsive: ['xxl'],
      render: (_, e) =>
        e.deviceType
          ? t(`events.deviceType.${e.deviceType}`, { defaultValue: e.deviceType })
          : MISSING,
    },
    {
      key: 'plant',
      title: t('events.column.plant'),
      render: (_, e) => e.plantName ?? MISSING,
    },
    {
      key: 'status',
      title: t('events.column.status'),
      width: 130,
      render: (_, e) => (
        <Badge
          status={eventStatusBadge(e.status)}
          text={
            e.status === 'open' && (e.deviceCount ?? 1) > 1
              ? t('events.status.openOf', { open: e.openCount, total: e.deviceCount })
              : t(`events.status.${e.status}`)
          }
        />
      ),
    },
    {
      key: 'recoverTime',
      title: t('events.column.recoverTime'),
      width: 170,
      render: (_, e) =>
        e.recoverTime ? <PlantTime value={e.recoverTime} zone={e.timezone} /> : MISSING,
    },
  ];

  const stacked: TableProps<EventItem>['columns'] = [
    {
      key: 'event',
      title: t('events.title'),
      render: (_, e) => (
        <Flex vertical gap={4} data-testid="event-card">
          <Flex justify="space-between" gap={8} wrap>
            <Badge
              color={severityColor(e.severity)}
              text={t(`events.severity.${e.severity}`, { defaultValue: e.severity })}
              data-testid="event-severity-cell"
              data-severity={e.severity}
            />
            <Badge
              status={eventStatusBadge(e.status)}
              text={
                e.status === 'open' && (e.deviceCount ?? 1) > 1
                  ? t('events.status.openOf', { open: e.openCount, total: e.deviceCount })
                  : t(`events.status.${e.status}`)
              }
            />
          </Flex>
          <span>
            <Typography.Link onClick={() => setOpen(e)} data-testid="event-code">
              {e.code}
            </Typography.Link>{' '}
            {e.meaning ?? ''}
          </span>
          <Flex gap={6} align="center" wrap>
            <DeviceLink sn={e.sn} deviceType={e.deviceType} />
            {(e.deviceCount ?? 1) > 1 && (
              <Tag
                style={{ marginInlineEnd: 0 }}
                onClick={() => setOpen(e)}
                data-testid="event-more-devices"
              >
                {t('events.moreDevices', { count: (e.deviceCount ?? 1) - 1 })}
              </Tag>
            )}
            <Typography.Text type="secondary">{e.plantName ?? ''}</Typography.Text>
          </Flex>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {e.occurTime}
            {e.recoverTime ? ` → ${e.recoverTime}` : ''}
            {e.timezone ? ` (${e.timezone})` : ''}
          </Typography.Text>
        </Flex>
      ),
    },
  ];

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="events-title">
          {t('events.title')}
        </Typography.Title>
      }
      extra={
        mayExport && (
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'inverter', label: t('events.downloadInverter') },
                { key: 'battery', label: t('events.downloadBattery') },
                { key: 'dynamic', label: t('events.downloadDynamic') },
              ],
              onClick: ({ key }) => {
                if (key === 'dynamic') setDynamic(true);
                else download(key as 'inverter' | 'battery');
              },
            }}
          >
            <Button icon={<DownloadOutlined />} loading={downloading} data-testid="events-download">
              {t('events.download')}
            </Button>
          </Dropdown>
        )
      }
    >
      <Flex gap={12} wrap style={{ marginBottom: 16 }}>
        <Select<number>
          allowClear
          showSearch={{ filterOption: false, onSearch: setPlantSearch }}
          placeholder={t('events.filter.plant')}
          aria-label={t('events.filter.plant')}
          value={filter.plantId ?? undefined}
          onChange={(v) => update({ plantId: v ?? null })}
          options={(plants.data?.infos ?? []).map((p) => ({ value: p.id, label: p.name }))}
          loading={plants.isFetching}
          style={{ width: w(220) }}
          data-testid="event-plant"
        />
        <Input.Search
          allowClear
          placeholder={t('events.filter.sn')}
          aria-label={t('events.filter.sn')}
          value={sn}
          onChange={(e) => setSn(e.target.value)}
          onSearch={(v) => update({ sn: v })}
          style={{ width: w(200) }}
          data-testid="event-sn"
        />
        <Select<EventFilter['deviceType']>
          aria-label={t('events.column.deviceType')}
          value={filter.deviceType}
          onChange={(deviceType) => update({ deviceType })}
          options={[
            { value: '', label: t('events.filter.anyDeviceType') },
            ...DEVICE_TYPES.map((d) => ({ value: d, label: t(`events.deviceType.${d}`) })),
          ]}
          style={{ width: w(180) }}
          data-testid="event-device-type"
        />
        <Select<EventFilter['severity']>
          aria-label={t('events.column.severity')}
          value={filter.severity}
          onChange={(severity) => update({ severity })}
          options={[
            { value: '', label: t('events.filter.anySeverity') },
            ...SEVERITIES.map((s) => ({ value: s, label: t(`events.severity.${s}`) })),
          ]}
          style={{ width: w(150) }}
          data-testid="event-severity"
        />
        <Select<EventFilter['status']>
          aria-label={t('events.column.status')}
          value={filter.status}
          onChange={(status) => update({ status })}
          options={[
            { value: '', label: t('events.filter.anyStatus') },
            { value: 'open', label: t('events.status.open') },
            { value: 'closed', label: t('events.status.closed') },
          ]}
          style={{ width: w(200) }}
          data-testid="event-status"
        />
        <DatePicker.RangePicker
          aria-label={t('events.filter.range')}
          presets={rangePresets(t)}
          value={range}
          onChange={(v) =>
            update({
              sdate: v?.[0]?.format('YYYY-MM-DD') ?? '',
              edate: v?.[1]?.format('YYYY-MM-DD') ?? '',
            })
          }
          style={narrow ? { width: '100%' } : undefined}
          data-testid="event-range"
        />
      </Flex>
      {list.isError ? (
        <Result
          status="warning"
          title={t('events.loadFailed')}
          extra={<Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : (
        <Table<EventItem>
          rowKey="id"
          data-testid="event-table"
          columns={narrow ? stacked : columns}
          dataSource={list.data?.record ?? []}
          loading={list.isFetching}
          scroll={narrow ? undefined : { x: 1080 }}
          onRow={(e) => ({ onDoubleClick: () => setOpen(e) })}
          locale={{
            emptyText: (
              <Empty description={filtered ? t('events.emptyFiltered') : t('events.empty')} />
            ),
          }}
          pagination={{
            current: filter.page,
            pageSize: filter.limit,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 50, 100],
            showTotal: (total) => t('events.total', { total }),
          }}
          onChange={(p) => setPage(p.current ?? 1, p.pageSize)}
        />
      )}
      {open && <EventDrawer event={open} onClose={() => setOpen(null)} />}
      {dynamic && <DynamicDialog onClose={() => setDynamic(false)} />}
    </Card>
  );
}
