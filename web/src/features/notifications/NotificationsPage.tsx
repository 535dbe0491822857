import { CheckOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Badge,
  Button,
  Card,
  Empty,
  Flex,
  Segmented,
  Select,
  Table,
  Tag,
  Typography,
  type TableProps,
} from 'antd';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { messageKeys } from '@/shared/api/keys';
import {
  messageCountQuery,
  readAllMessages,
  readMessage,
  type MessageItem,
} from '@/shared/api/messages';
import { MISSING } from '@/shared/format/number';
import { useListQuery } from '@/shared/list/useListQuery';
import { SubmitButton } from '@/shared/ui/guarded';
import { severityColor } from '@/shared/ui/status';
import { Problem } from '@/shared/ui/Problem';
import { useNarrow } from '@/shared/ui/useNarrow';
import {
  KINDS,
  kindOf,
  messageLinks,
  NOTIFICATION_FILTERS,
  notificationListQuery,
  READ_STATES,
  type Kind,
} from './api';
import { OpenCases } from './OpenCases';

const KIND_COLOR: Record<Kind, string> = {
  warning: severityColor('warning'),
  fault: severityColor('fault'),
  notice: 'blue',
};

/** When a message happened: its occurrence's time in the plant's zone, else when it was left. */
function when(m: MessageItem): string {
  if (m.event) return `${m.event.occurTime}${m.event.timezone ? ` (${m.event.timezone})` : ''}`;
  return m.createAt ? m.createAt.slice(0, 16).replace('T', ' ') : MISSING;
}

/**
 * Notifications: every message of the user (the bell's list in full), read and unread, filtered
 * by read state and kind, paged; one or all marked read; each leads to its plant and device.
 */
export default function NotificationsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const phone = useNarrow();
  const queryClient = useQueryClient();
  const { query, list, update, setPage, filtered } = useListQuery(
    NOTIFICATION_FILTERS,
    notificationListQuery,
    { limit: 20 },
  );
  const unread = useQuery(messageCountQuery);
  const refresh = () => queryClient.invalidateQueries({ queryKey: messageKeys.all });
  const readOne = useMutation({ mutationFn: readMessage, onSuccess: refresh });
  const readAll = useMutation({
    mutationFn: readAllMessages,
    onSuccess: async () => {
      await refresh();
      message.success(t('notifications.allRead'));
    },
  });

  const kindTag = (m: MessageItem) => {
    const kind = kindOf(m);
    return (
      <Tag color={KIND_COLOR[kind]} style={{ marginInlineEnd: 0 }} data-testid="notification-kind">
        {t(`notifications.kinds.${kind}`)}
      </Tag>
    );
  };
  const title = (m: MessageItem) => (
    <Flex gap={6} align="center" wrap>
      <Badge status={m.status === 0 ? 'processing' : 'default'} />
      <Typography.Text strong={m.status === 0} data-testid="notification-title">
        {m.title}
      </Typography.Text>
      {m.resolved && <Tag style={{ marginInlineEnd: 0 }}>{t('notifications.resolved')}</Tag>}
    </Flex>
  );
  const links = (m: MessageItem) => {
    const { plant, device } = messageLinks(m);
    if (!plant && !device) return MISSING;
    return (
      <Flex vertical>
        {plant && (
          <Link to={plant.to} data-testid="notification-plant">
            {plant.name}
          </Link>
        )}
        {device && <Link to={device.to}>{device.sn}</Link>}
      </Flex>
    );
  };
  const markRead = (m: MessageItem) =>
    m.status === 0 ? (
      <SubmitButton
        size="small"
        icon={<CheckOutlined />}
        aria-label={t('notifications.markRead')}
        loading={readOne.isPending && readOne.variables?.id === m.id}
        onClick={() => readOne.mutate(m)}
        data-testid="notification-read"
      >
        {phone ? null : t('notifications.markRead')}
      </SubmitButton>
    ) : null;

  // the mark-read column only while the page has something to mark
  const anyUnread = (list.data?.infos ?? []).some((m) => m.status === 0);
  const columns: TableProps<MessageItem>['columns'] = phone
    ? [
        {
          key: 'message',
          title: t('notifications.message'),
          render: (_, m) => (
            <Flex vertical gap={4}>
              {title(m)}
              <Flex gap={6} wrap align="center">
                {kindTag(m)}
                <Typography.Text type="secondary">{when(m)}</Typography.Text>
              </Flex>
              <span>{m.content}</span>
              {links(m)}
            </Flex>
          ),
        },
        ...(anyUnread
          ? [{ key: 'read', width: 56, render: (_: unknown, m: MessageItem) => markRead(m) }]
          : []),
      ]
    : [
        { key: 'title', title: t('notifications.titleColumn'), render: (_, m) => title(m) },
        { key: 'kind', title: t('notifications.kind'), render: (_, m) => kindTag(m) },
        { key: 'content', title: t('notifications.content'), render: (_, m) => m.content },
        {
          key: 'time',
          title: t('notifications.time'),
          onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
          render: (_, m) => when(m),
        },
        { key: 'links', title: t('notifications.plantDevice'), render: (_, m) => links(m) },
        ...(anyUnread
          ? [
              {
                key: 'read',
                title: t('notifications.actions'),
                render: (_: unknown, m: MessageItem) => markRead(m),
              },
            ]
          : []),
      ];

  return (
    <Card
      styles={{ title: { whiteSpace: 'normal', overflow: 'visible', padding: '12px 0' } }}
      title={
        <Flex gap={12} wrap align="center" justify="space-between">
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="notifications-title">
            {t('notifications.title')}
          </Typography.Title>
          <SubmitButton
            icon={<CheckOutlined />}
            disabled={!unread.data}
            loading={readAll.isPending}
            onClick={() => readAll.mutate()}
            data-testid="notifications-read-all"
          >
            {t('notifications.readAll')}
          </SubmitButton>
        </Flex>
      }
    >
      <OpenCases />
      <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
        <Segmented
          value={query.read}
          onChange={(read) => update({ read })}
          options={READ_STATES.map((r) => ({ value: r, label: t(`notifications.read.${r}`) }))}
          data-testid="notifications-read-filter"
        />
        <Select<Kind | ''>
          aria-label={t('notifications.kind')}
          value={query.kind}
          onChange={(kind) => update({ kind })}
          style={{ width: phone ? '100%' : 180 }}
          options={[
            { value: '', label: t('notifications.allKinds') },
            ...KINDS.map((k) => ({ value: k, label: t(`notifications.kinds.${k}`) })),
          ]}
          data-testid="notifications-kind-filter"
        />
        {unread.data ? (
          <Typography.Text type="secondary" data-testid="notifications-unread">
            {t('notifications.unreadCount', { total: unread.data })}
          </Typography.Text>
        ) : null}
      </Flex>
      {list.isError ? (
        <Problem
          title={t('notifications.loadFailed')}
          testId="notifications-error"
          extra={<Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : (
        <Table<MessageItem>
          // events and notices number their ids apart
          rowKey={(m) => `${m.source}-${m.id}`}
          data-testid="notifications-table"
          columns={columns}
          dataSource={list.data?.infos ?? []}
          loading={list.isFetching && !list.data}
          size={phone ? 'small' : 'middle'}
          onRow={(m) => ({ 'data-unread': m.status === 0 }) as HTMLAttributes<HTMLElement>}
          locale={{
            emptyText: (
              <Empty
                description={filtered ? t('notifications.noMatch') : t('notifications.empty')}
              />
            ),
          }}
          pagination={{
            current: query.page,
            pageSize: query.limit,
            total: list.data?.total ?? 0,
            showSizeChanger: !phone,
            pageSizeOptions: [10, 20, 50, 100],
            showTotal: (count) => t('notifications.total', { total: count }),
          }}
          onChange={(p) => setPage(p.current ?? 1, p.pageSize)}
        />
      )}
    </Card>
  );
}
