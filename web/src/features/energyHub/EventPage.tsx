import './texts';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Select, Typography, type TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedTable } from '@/shared/list/PagedTable';
import { useListQuery } from '@/shared/list/useListQuery';
import { useCan } from '@/shared/permissions';
import { useNarrow } from '@/shared/ui/useNarrow';
import { EVENT_FILTERS, eventListQuery } from './api';
import { CancelEventButton } from './CancelEventButton';
import { EventDrawer } from './EventDrawer';
import { NewEventDialog } from './NewEventDialog';
import { EventStatusBadge } from './tags';
import { shortTime } from './time';
import { EVENT_STATUSES, type DrEvent, type EventStatus } from './types';
import { useDuration, usePower } from './useDuration';
import { OpenLink } from './OpenLink';
import { PlantFilter, ProgramFilter } from './Filters';

const nowrap = { style: { whiteSpace: 'nowrap' as const } };

/** /energyHub/event: the demand-response events of the caller's programmes. */
export default function EventPage() {
  const { t } = useTranslation();
  const phone = useNarrow();
  const utility = useCan('sys.energyhub.edit');
  const { query, list, update, setPage, filtered } = useListQuery(EVENT_FILTERS, eventListQuery);
  const [openId, setOpenId] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const duration = useDuration();
  const power = usePower();

  const name = (e: DrEvent) => (
    <OpenLink onOpen={() => setOpenId(e.id)} testId="hub-event-open">
      {e.name}
    </OpenLink>
  );

  const columns: TableProps<DrEvent>['columns'] = phone
    ? [
        {
          key: 'event',
          title: t('energyHub.event'),
          render: (_, e) => (
            <Flex vertical gap={4} align="flex-start">
              {name(e)}
              <EventStatusBadge status={e.status} />
              <Typography.Text type="secondary">
                {shortTime(e.startDate)} · {duration(e.duration)}
              </Typography.Text>
              <Typography.Text type="secondary">
                {power(e)} · {e.programName}
              </Typography.Text>
              <CancelEventButton event={e} />
            </Flex>
          ),
        },
      ]
    : [
        {
          key: 'name',
          title: t('energyHub.event'),
          render: (_, e) => (
            <Flex vertical align="flex-start">
              {name(e)}
              <Typography.Text type="secondary">{e.programName}</Typography.Text>
            </Flex>
          ),
        },
        {
          key: 'status',
          title: t('energyHub.statusLabel'),
          render: (_, e) => (
            <Flex vertical gap={2} align="flex-start">
              <EventStatusBadge status={e.status} />
              {e.optedOut && e.status !== 'cancelled' && (
                <Typography.Text type="secondary">{t('energyHub.optedOut')}</Typography.Text>
              )}
            </Flex>
          ),
        },
        {
          key: 'start',
          title: t('energyHub.start'),
          onCell: () => nowrap,
          render: (_, e) => shortTime(e.startDate),
        },
        {
          key: 'duration',
          title: t('energyHub.duration'),
          onCell: () => nowrap,
          render: (_, e) => duration(e.duration),
        },
        {
          key: 'end',
          title: t('energyHub.end'),
          onCell: () => nowrap,
          render: (_, e) => shortTime(e.endDate),
        },
        {
          key: 'power',
          title: t('energyHub.power'),
          onCell: () => nowrap,
          render: (_, e) => power(e),
        },
        { key: 'plants', title: t('energyHub.plants'), align: 'right', render: (_, e) => e.plants },
        {
          key: 'actions',
          title: t('energyHub.actions'),
          render: (_, e) => <CancelEventButton event={e} />,
        },
      ];

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="hub-events-title">
          {t('energyHub.eventsTitle')}
        </Typography.Title>
      }
      extra={
        utility && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setCreating(true)}
            data-testid="hub-event-new"
          >
            {t('energyHub.newEvent')}
          </Button>
        )
      }
    >
      <Flex gap={12} wrap style={{ marginBottom: 16 }}>
        <Select
          aria-label={t('energyHub.statusLabel')}
          placeholder={t('energyHub.allStatuses')}
          allowClear
          value={query.status || undefined}
          onChange={(status?: EventStatus) => update({ status: status ?? '' })}
          style={{ width: phone ? '100%' : 180 }}
          options={EVENT_STATUSES.map((s) => ({
            value: s,
            label: t(`energyHub.eventStatus.${s}`),
          }))}
          data-testid="hub-event-filter-status"
        />
        <ProgramFilter
          value={query.programId}
          onChange={(programId) => update({ programId })}
          width={220}
        />
        <PlantFilter
          value={query.stationId}
          onChange={(stationId) => update({ stationId })}
          width={200}
        />
      </Flex>
      <PagedTable<DrEvent>
        list={list}
        page={query.page}
        limit={query.limit}
        onPage={setPage}
        columns={columns}
        testId="hub-events"
        errorTestId="hub-events-error"
        loadFailed={t('energyHub.eventsFailed')}
        empty={filtered ? t('energyHub.noMatch') : t('energyHub.noEvents')}
        total={(count) => t('energyHub.eventTotal', { total: count })}
        compact={phone}
      />
      {openId !== null && <EventDrawer id={openId} onClose={() => setOpenId(null)} />}
      {creating && <NewEventDialog onClose={() => setCreating(false)} />}
    </Card>
  );
}
