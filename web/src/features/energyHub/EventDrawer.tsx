import { useQuery } from '@tanstack/react-query';
import { Badge, Descriptions, Drawer, Empty, Flex, Skeleton, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/shared/format/number';
import { ErrorCode } from '@/shared/http';

import { useNarrow } from '@/shared/ui/useNarrow';
import { eventQuery } from './api';
import { CancelEventButton } from './CancelEventButton';
import { dispatchBadge } from './status';
import { EventStatusBadge } from './tags';
import { shortTime, zonedTime } from './time';
import { type EventDispatch, type EventInterval, type EventReport } from './types';
import { useDuration, usePower } from './useDuration';
import { DetailProblem } from './DetailProblem';

/** One event: when and what, its intervals, what each of the caller's plants was sent, reports. */
export function EventDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const detail = useQuery(eventQuery(id));
  const duration = useDuration();
  const power = usePower();
  const e = detail.data;

  let body;
  if (detail.isPending) body = <Skeleton active />;
  else if (detail.isError || !e)
    body = (
      <DetailProblem
        error={detail.error}
        missingCode={ErrorCode.DrEventMissing}
        gone={t('energyHub.eventGone')}
        failed={t('energyHub.eventsFailed')}
        testId="hub-event-error"
        onRetry={() => void detail.refetch()}
      />
    );
  else
    body = (
      <Flex vertical gap={16}>
        <CancelEventButton event={e} size="middle" framed />
        <Descriptions
          column={1}
          size="small"
          bordered={!phone}
          items={[
            {
              key: 'status',
              label: t('energyHub.statusLabel'),
              children: <EventStatusBadge status={e.status} />,
            },
            { key: 'program', label: t('energyHub.program'), children: e.programName },
            {
              key: 'source',
              label: t('energyHub.source'),
              children: t(`energyHub.sources.${e.source}`, { defaultValue: e.source }),
            },
            { key: 'start', label: t('energyHub.start'), children: zonedTime(e.startDate) },
            { key: 'duration', label: t('energyHub.duration'), children: duration(e.duration) },
            { key: 'end', label: t('energyHub.end'), children: zonedTime(e.endDate) },
            { key: 'power', label: t('energyHub.power'), children: power(e) },
            { key: 'priority', label: t('energyHub.priority'), children: e.priority },
            { key: 'plants', label: t('energyHub.plants'), children: e.plants },
            ...(e.optedOut
              ? [
                  {
                    key: 'optedOut',
                    label: t('energyHub.optedOut'),
                    children: t('energyHub.optedOutText'),
                  },
                ]
              : []),
          ]}
        />
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('energyHub.intervals')}
        </Typography.Title>
        <Table<EventInterval>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={e.intervals}
          locale={{ emptyText: <Empty description={t('energyHub.noIntervals')} /> }}
          columns={[
            {
              key: 'time',
              title: t('energyHub.time'),
              render: (_, i) => `${shortTime(i.startDate)} – ${shortTime(i.endDate).slice(11)}`,
            },
            { key: 'power', title: t('energyHub.power'), render: (_, i) => power(i) },
          ]}
        />
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('energyHub.dispatches')}
        </Typography.Title>
        <div style={{ overflowX: 'auto' }}>
          <Table<EventDispatch>
            size="small"
            rowKey={(d) => `${d.stationId}-${d.sn}`}
            pagination={false}
            dataSource={e.dispatches}
            data-testid="hub-event-dispatches"
            locale={{ emptyText: <Empty description={t('energyHub.noDispatches')} /> }}
            columns={[
              {
                key: 'device',
                title: t('energyHub.plant'),
                render: (_, d) => (
                  <Flex vertical>
                    <span>{d.stationName}</span>
                    <Typography.Text type="secondary">{d.sn}</Typography.Text>
                  </Flex>
                ),
              },
              {
                key: 'state',
                title: t('energyHub.statusLabel'),
                render: (_, d) => (
                  <Flex vertical>
                    <Badge
                      status={dispatchBadge(d.state)}
                      text={t(`energyHub.dispatchState.${d.state}`, { defaultValue: d.state })}
                    />
                    {d.error && (
                      <Typography.Text type="danger" style={{ wordBreak: 'break-word' }}>
                        {d.error}
                      </Typography.Text>
                    )}
                  </Flex>
                ),
              },
              ...(phone
                ? []
                : [
                    {
                      key: 'updated',
                      title: t('energyHub.updatedAt'),
                      render: (_: unknown, d: EventDispatch) => shortTime(d.updatedAt),
                    },
                  ]),
            ]}
          />
        </div>
        {(e.source === 'vtn' || e.reports.length > 0) && (
          <>
            <Typography.Title level={5} style={{ margin: 0 }}>
              {t('energyHub.reports')}
            </Typography.Title>
            <Table<EventReport>
              size="small"
              rowKey={(r) => `${r.payloadType}-${r.sentAt ?? ''}`}
              pagination={false}
              dataSource={e.reports}
              locale={{ emptyText: <Empty description={t('energyHub.noReports')} /> }}
              columns={[
                { key: 'type', title: t('energyHub.payloadType'), render: (_, r) => r.payloadType },
                {
                  key: 'sent',
                  title: t('energyHub.sentAt'),
                  render: (_, r) =>
                    r.error ? (
                      <Typography.Text type="danger">{r.error}</Typography.Text>
                    ) : r.sentAt ? (
                      shortTime(r.sentAt)
                    ) : (
                      MISSING
                    ),
                },
              ]}
            />
          </>
        )}
      </Flex>
    );

  return (
    <Drawer
      open
      onClose={onClose}
      size={phone ? '100%' : 640}
      title={e ? e.name : t('energyHub.event')}
      data-testid="hub-event-drawer"
    >
      {body}
    </Drawer>
  );
}
