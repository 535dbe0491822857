import { Alert, Badge, Descriptions, Drawer, Skeleton, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/shared/format/number';
import { eventDetailQuery, type EventItem } from './api';
import { SEVERITY_COLORS } from './severity';

const text = (v: string | null | undefined) => (v && v.trim() ? v : MISSING);

/** One event: what it means and what to do, in the user's language. */
export function EventDrawer({ event, onClose }: { event: EventItem; onClose: () => void }) {
  const { t } = useTranslation();
  // Re-read by id so the texts follow a language switch while the drawer is open.
  const detail = useQuery({ ...eventDetailQuery(event.id), placeholderData: event });
  const e = detail.data ?? event;
  return (
    <Drawer
      open
      onClose={onClose}
      size={520}
      title={`${e.code} · ${text(e.sn)}`}
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
                    color={SEVERITY_COLORS[e.severity]}
                    text={t(`events.severity.${e.severity}`)}
                  />
                ),
              },
              {
                key: 'status',
                label: t('events.column.status'),
                children: t(`events.status.${e.status}`),
              },
              { key: 'plant', label: t('events.column.plant'), children: text(e.plantName) },
              {
                key: 'device',
                label: t('events.column.device'),
                children: `${text(e.sn)} (${t(`events.deviceType.${e.deviceType ?? 'unknown'}`, {
                  defaultValue: e.deviceType ?? MISSING,
                })})`,
              },
              { key: 'occur', label: t('events.column.occurTime'), children: e.occurTime },
              {
                key: 'recover',
                label: t('events.column.recoverTime'),
                children: text(e.recoverTime),
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
        </>
      )}
    </Drawer>
  );
}
