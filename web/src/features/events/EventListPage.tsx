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
  Input,
  Result,
  Select,
  Table,
  Typography,
  type TableProps,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { rangePresets } from '@/shared/format/dateRanges';
import { MISSING } from '@/shared/format/number';
import { isApiError } from '@/shared/http';
import { useCan } from '@/shared/permissions';
import {
  DEFAULT_FILTER,
  DEVICE_TYPES,
  downloadEvents,
  eventListQuery,
  plantOptionsQuery,
  type EventFilter,
  type EventItem,
} from './api';
import { DynamicDialog } from './DynamicDialog';
import { EventDrawer } from './EventDrawer';
import { SEVERITY_COLORS } from './severity';

const DEVICE_PATHS: Record<string, string> = {
  inverter: 'inverter',
  battery: 'battery',
  meter: 'meter',
  weather_station: 'weather',
};

/** device/event: events of the caller's plants with filters, a detail drawer and downloads. */
export default function EventListPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const mayExport = useCan('event.export');
  const [filter, setFilter] = useState<EventFilter>(DEFAULT_FILTER);
  const [sn, setSn] = useState('');
  const [plantSearch, setPlantSearch] = useState('');
  const [open, setOpen] = useState<EventItem | null>(null);
  const [dynamic, setDynamic] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const list = useQuery(eventListQuery(filter));
  const plants = useQuery(plantOptionsQuery(plantSearch));
  const update = (patch: Partial<EventFilter>) => setFilter((f) => ({ ...f, page: 1, ...patch }));
  const filtered =
    filter.plantId !== null ||
    filter.sn !== '' ||
    filter.deviceType !== '' ||
    filter.severity !== '' ||
    filter.status !== '' ||
    filter.range !== null;

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
      render: (_, e) => e.occurTime,
    },
    {
      key: 'severity',
      title: t('events.column.severity'),
      width: 110,
      render: (_, e) => (
        <Badge color={SEVERITY_COLORS[e.severity]} text={t(`events.severity.${e.severity}`)} />
      ),
    },
    {
      key: 'code',
      title: t('events.column.code'),
      width: 90,
      render: (_, e) => (
        <Typography.Link onClick={() => setOpen(e)} data-testid="event-code">
          {e.code}
        </Typography.Link>
      ),
    },
    {
      key: 'meaning',
      title: t('events.column.meaning'),
      ellipsis: true,
      render: (_, e) => e.meaning ?? MISSING,
    },
    {
      key: 'device',
      title: t('events.column.device'),
      render: (_, e) => {
        const segment = e.deviceType ? DEVICE_PATHS[e.deviceType] : undefined;
        if (!e.sn) return MISSING;
        return segment ? (
          <Link to={`/device/${segment}/${encodeURIComponent(e.sn)}`}>{e.sn}</Link>
        ) : (
          e.sn
        );
      },
    },
    {
      key: 'deviceType',
      title: t('events.column.deviceType'),
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
      width: 110,
      render: (_, e) => (
        <Badge
          status={e.status === 'open' ? 'processing' : 'default'}
          text={t(`events.status.${e.status}`)}
        />
      ),
    },
    {
      key: 'recoverTime',
      title: t('events.column.recoverTime'),
      width: 170,
      render: (_, e) => e.recoverTime ?? MISSING,
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
          style={{ width: 220 }}
          data-testid="event-plant"
        />
        <Input.Search
          allowClear
          placeholder={t('events.filter.sn')}
          aria-label={t('events.filter.sn')}
          value={sn}
          onChange={(e) => setSn(e.target.value)}
          onSearch={(v) => update({ sn: v })}
          style={{ width: 200 }}
          data-testid="event-sn"
        />
        <Select<string>
          aria-label={t('events.column.deviceType')}
          value={filter.deviceType}
          onChange={(deviceType) => update({ deviceType })}
          options={[
            { value: '', label: t('events.filter.anyDeviceType') },
            ...DEVICE_TYPES.map((d) => ({ value: d, label: t(`events.deviceType.${d}`) })),
          ]}
          style={{ width: 180 }}
          data-testid="event-device-type"
        />
        <Select<EventFilter['severity']>
          aria-label={t('events.column.severity')}
          value={filter.severity}
          onChange={(severity) => update({ severity })}
          options={[
            { value: '', label: t('events.filter.anySeverity') },
            { value: 'warning', label: t('events.severity.warning') },
            { value: 'fault', label: t('events.severity.fault') },
          ]}
          style={{ width: 150 }}
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
          style={{ width: 200 }}
          data-testid="event-status"
        />
        <DatePicker.RangePicker
          aria-label={t('events.filter.range')}
          presets={rangePresets(t)}
          value={filter.range}
          onChange={(v) =>
            update({ range: v && v[0] && v[1] ? ([v[0], v[1]] as [Dayjs, Dayjs]) : null })
          }
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
          columns={columns}
          dataSource={list.data?.record ?? []}
          loading={list.isFetching}
          scroll={{ x: 1300 }}
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
          onChange={(p) =>
            setFilter((f) => ({ ...f, page: p.current ?? 1, limit: p.pageSize ?? f.limit }))
          }
        />
      )}
      {open && <EventDrawer event={open} onClose={() => setOpen(null)} />}
      {dynamic && <DynamicDialog onClose={() => setDynamic(false)} />}
    </Card>
  );
}
