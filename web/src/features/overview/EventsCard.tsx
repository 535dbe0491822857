import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Empty, List, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { eventsQuery } from './api';

/** Tag colours of the event severities (notices are not warnings). */
const SEVERITY_TAG: Record<string, string> = { info: 'blue', warning: 'orange', fault: 'red' };

/** The plant's open events, newest first (the five newest; the events screen has the rest). */
export function EventsCard({ plantId }: { plantId: number }) {
  const { t } = useTranslation();
  const q = useQuery(eventsQuery(plantId));
  return (
    <Card
      title={t('overview.events.title')}
      data-testid="events-card"
      extra={<Link to="/device/event">{t('overview.events.all')}</Link>}
    >
      {q.isError ? (
        <Alert
          type="warning"
          showIcon
          message={t('overview.events.failed')}
          data-testid="events-error"
        />
      ) : !q.data ? (
        <Skeleton active />
      ) : q.data.infos.length === 0 ? (
        <Empty description={t('overview.events.empty')} data-testid="events-empty" />
      ) : (
        <List
          size="small"
          dataSource={q.data.infos}
          footer={
            q.data.total > q.data.infos.length ? (
              <Typography.Text type="secondary">
                {t('overview.events.more', { count: q.data.total - q.data.infos.length })}
              </Typography.Text>
            ) : null
          }
          renderItem={(e) => (
            <List.Item data-testid="event-row">
              <List.Item.Meta
                title={
                  <>
                    <Tag color={SEVERITY_TAG[e.severity] ?? 'orange'}>
                      {t(`events.severity.${e.severity}`, { defaultValue: e.severity })}
                    </Tag>
                    {e.meaning ?? e.code}
                  </>
                }
                description={`${e.alias || e.sn}${
                  (e.deviceCount ?? 1) > 1
                    ? ` ${t('events.moreDevices', { count: (e.deviceCount ?? 1) - 1 })}`
                    : ''
                } · ${e.occurTime}`}
              />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
