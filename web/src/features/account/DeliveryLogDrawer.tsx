import { useQuery } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Card,
  Drawer,
  Empty,
  Flex,
  Pagination,
  Skeleton,
  Table,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Problem } from '@/shared/ui/Problem';
import { useNarrow } from '@/shared/ui/useNarrow';
import './texts';
import { LOG_PAGE_SIZE, deliveriesQuery, type DeliveryAttempt, type Webhook } from './webhooksApi';

const BADGE = { delivered: 'success', pending: 'warning', failed: 'error' } as const;

/** When an attempt was made, in the browser's time. */
const when = (ms: number) => new Date(ms).toLocaleString();

/** An endpoint's delivery log, newest first: a table on wide screens, cards on a phone. */
export function DeliveryLogDrawer({ hook, onClose }: { hook: Webhook; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useNarrow();
  const [page, setPage] = useState(1);
  const log = useQuery(deliveriesQuery(hook.id, page));
  const result = (a: DeliveryAttempt) => (
    <Flex vertical gap={2}>
      <Badge status={BADGE[a.state]} text={t(`webhooks.states.${a.state}`)} />
      <Typography.Text type="secondary" style={{ wordBreak: 'break-word' }}>
        {a.status != null ? `HTTP ${a.status}` : a.error}
      </Typography.Text>
    </Flex>
  );

  let body;
  if (log.isPending) body = <Skeleton active />;
  else if (log.isError)
    body = (
      <Problem
        title={t('webhooks.logFailed')}
        testId="webhook-log-error"
        extra={<Button onClick={() => void log.refetch()}>{t('webhooks.retry')}</Button>}
      />
    );
  else if (log.data.total === 0) body = <Empty description={t('webhooks.logEmpty')} />;
  else if (phone)
    body = (
      <Flex vertical gap={8}>
        {log.data.infos.map((a) => (
          <Card key={`${a.deliveryId}-${a.attempt}`} size="small" data-testid="webhook-log-card">
            <Flex justify="space-between" gap={8}>
              <Typography.Text strong>{t(`webhooks.events.${a.event}`)}</Typography.Text>
              <Typography.Text type="secondary">#{a.attempt}</Typography.Text>
            </Flex>
            <div>{when(a.at)}</div>
            {result(a)}
          </Card>
        ))}
        <Pagination
          simple
          current={page}
          pageSize={LOG_PAGE_SIZE}
          total={log.data.total}
          onChange={setPage}
        />
      </Flex>
    );
  else
    body = (
      <Table<DeliveryAttempt>
        size="small"
        rowKey={(a) => `${a.deliveryId}-${a.attempt}`}
        dataSource={log.data.infos}
        pagination={{
          current: page,
          pageSize: LOG_PAGE_SIZE,
          total: log.data.total,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          { key: 'at', title: t('webhooks.time'), render: (_, a) => when(a.at) },
          {
            key: 'event',
            title: t('webhooks.event'),
            render: (_, a) => t(`webhooks.events.${a.event}`),
          },
          { key: 'attempt', title: t('webhooks.attempt'), dataIndex: 'attempt' },
          { key: 'result', title: t('webhooks.result'), render: (_, a) => result(a) },
          {
            key: 'duration',
            title: t('webhooks.duration'),
            render: (_, a) => t('webhooks.durationMs', { ms: a.durationMs }),
          },
        ]}
      />
    );
  return (
    <Drawer
      open
      onClose={onClose}
      title={t('webhooks.log')}
      size={phone ? '100%' : 720}
      data-testid="webhook-log"
    >
      <Typography.Paragraph type="secondary" ellipsis style={{ marginBottom: 12 }}>
        {hook.url}
      </Typography.Paragraph>
      {body}
    </Drawer>
  );
}
