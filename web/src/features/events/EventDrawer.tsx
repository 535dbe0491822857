import { Alert, Badge, Descriptions, Drawer, Skeleton, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/shared/format/number';
import { eventDetailQuery, type EventDevice, type EventItem } from './api';
import { DeviceLink } from './cells';
import { eventStatusBadge, severityColor } from '@/shared/ui/status';
import { formatPlantTime } from '@/shared/format/time';

const text = (v: string | null | undefined) => (v && v.trim() ? v : MISSING);

/**
 * One event occurrence: what it means and what to do, in the user's language, and the devices
 * it affects, each with its own times (the occurrence is recovered when the last one is).
 */
export function EventDrawer({ event, onClose }: { event: EventItem; onClose: () => void }) {
  const { t } = useTranslation();
  // Re-read by id so the texts follow a language switch while the drawer is open.
  const detail = useQuery({ ...eventDetailQuery(event.id), placeholderData: event });
  const e = detail.data ?? event;
  const devices = e.devices ?? [];
  return (
    <Drawer
      open
      onClose={onClose}
      size={560}
      title={
        devices.length > 1
          ? `${e.code} · ${t('events.deviceCount', { count: devices.length })}`
          : `${e.code} · ${text(e.sn)}`
      }
      data-testid="event-drawer"
    >
      {detail.isPending ? (
        <Skeleton active />
      ) : (
        <>
          <Descriptions
            column={1}
            size="small"
            items={[
              {
                key: 'severity',
                label: t('events.column.severity'),
                children: (
                  <Badge
                    color={severityColor(e.severity)}
                    text={t(`events.severity.${e.severity}`, { defaultValue: e.severity })}
                  />
                ),
              },
              {
                key: 'status',
                label: t('events.column.status'),
                children:
                  e.status === 'open' && devices.length > 1
                    ? t('events.status.openOf', { open: e.openCount, total: devices.length })
                    : t(`events.status.${e.status}`),
              },
              { key: 'plant', label: t('events.column.plant'), children: text(e.plantName) },
              {
                key: 'device',
                label: t('events.column.device'),
                children:
                  devices.length > 1
                    ? t('events.deviceCount', { count: devices.length })
                    : `${text(e.sn)} (${t(`events.deviceType.${e.deviceType ?? 'unknown'}`, {
                        defaultValue: e.deviceType ?? MISSING,
                      })})`,
              },
              {
                key: 'occur',
                label: t('events.column.occurTime'),
                children: formatPlantTime(e.occurTime, e.timezone),
              },
              {
                key: 'recover',
                label: t('events.column.recoverTime'),
                children: e.recoverTime ? formatPlantTime(e.recoverTime, e.timezone) : MISSING,
              },
              { key: 'tz', label: t('events.timezone'), children: text(e.timezone) },
            ]}
          />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('events.meaning')}
          </Typography.Title>
          <Typography.Paragraph data-testid="event-meaning">{text(e.meaning)}</Typography.Paragraph>
          <Typography.Title level={5}>{t('events.solution')}</Typography.Title>
          <Alert type="info" showIcon title={text(e.solution)} data-testid="event-solution" />
          {devices.length > 1 && (
            <>
              <Typography.Title level={5} style={{ marginTop: 16 }}>
                {t('events.devicesTitle', { count: devices.length })}
              </Typography.Title>
              <Table<EventDevice>
                size="small"
                rowKey="id"
                pagination={false}
                dataSource={devices}
                data-testid="event-devices"
                columns={[
                  {
                    key: 'sn',
                    title: t('events.column.device'),
                    render: (_, d) => <DeviceLink sn={d.sn} deviceType={d.deviceType} />,
                  },
                  {
                    key: 'status',
                    title: t('events.column.status'),
                    render: (_, d) => (
                      <Badge
                        status={eventStatusBadge(d.status)}
                        text={t(`events.status.${d.status}`)}
                      />
                    ),
                  },
                  {
                    key: 'recover',
                    title: t('events.column.recoverTime'),
                    render: (_, d) => d.recoverTime ?? MISSING,
                  },
                ]}
              />
            </>
          )}
        </>
      )}
    </Drawer>
  );
}
