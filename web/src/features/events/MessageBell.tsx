import { BellOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Empty, Flex, List, Popover, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { messageKeys } from '@/shared/api/keys';
import { useCan } from '@/shared/permissions';
import { SubmitButton } from '@/shared/ui/guarded';
import {
  messageCountQuery,
  messageListQuery,
  readAllMessages,
  readMessage,
  type MessageItem,
} from './api';
import { severityColor } from '@/shared/ui/status';

/**
 * The top bar's bell. Its count is what needs attention: warnings and faults on the user's
 * plants that are still open and not read. A recovered one stays in the list, marked
 * recovered, and counts no more. Notices (a firmware update is available) are messages too:
 * their title and text, read when opened, with no plant or event to go to. "View all" opens
 * the Notification screen, the list in full.
 */
export function MessageBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mayOpenEvents = useCan('event.view');
  const [open, setOpen] = useState(false);
  const count = useQuery(messageCountQuery);
  const list = useQuery({ ...messageListQuery(), enabled: open });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: messageKeys.all });
  const readOne = useMutation({ mutationFn: readMessage, onSuccess: refresh });
  const readAll = useMutation({ mutationFn: readAllMessages, onSuccess: refresh });

  const openMessage = (m: MessageItem) => {
    if (m.status === 0) readOne.mutate(m);
    if (m.source === 'notice' || !mayOpenEvents) return;
    setOpen(false);
    void navigate('/device/event');
  };

  const content = (
    <div style={{ width: 360 }} data-testid="message-list">
      <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
        <Typography.Text strong>{t('events.messages.title')}</Typography.Text>
        <SubmitButton
          type="link"
          size="small"
          disabled={!count.data}
          loading={readAll.isPending}
          onClick={() => readAll.mutate()}
          data-testid="messages-read-all"
        >
          {t('events.messages.readAll')}
        </SubmitButton>
      </Flex>
      {list.isPending ? (
        <Flex justify="center" style={{ padding: 24 }}>
          <Spin />
        </Flex>
      ) : list.isError ? (
        <Typography.Text type="secondary">{t('events.loadFailed')}</Typography.Text>
      ) : (
        <List<MessageItem>
          size="small"
          dataSource={list.data.infos}
          locale={{ emptyText: <Empty description={t('events.messages.empty')} /> }}
          style={{ maxHeight: 360, overflowY: 'auto' }}
          renderItem={(m) => (
            <List.Item
              key={`${m.source ?? 'event'}-${m.id}`}
              onClick={() => openMessage(m)}
              style={{
                cursor: m.source === 'notice' && m.status !== 0 ? 'default' : 'pointer',
                opacity: m.status === 0 ? 1 : 0.6,
              }}
              data-testid="message-item"
              data-source={m.source ?? 'event'}
              data-unread={m.status === 0}
              data-resolved={m.resolved}
            >
              <List.Item.Meta
                avatar={<Badge color={m.source === 'notice' ? 'blue' : severityColor(m.type)} />}
                title={
                  <Flex gap={6} align="center" wrap>
                    <Typography.Text strong={m.status === 0}>{m.title}</Typography.Text>
                    {m.resolved && (
                      <Tag style={{ marginInlineEnd: 0 }} data-testid="message-resolved">
                        {t('events.messages.resolved')}
                      </Tag>
                    )}
                  </Flex>
                }
                description={
                  m.event ? (
                    <Flex vertical>
                      <span>
                        {t(`events.severity.${m.type}`, { defaultValue: m.type })} · {m.content}
                      </span>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {m.event.occurTime}
                        {m.event.timezone ? ` (${m.event.timezone})` : ''}
                      </Typography.Text>
                    </Flex>
                  ) : (
                    <Flex vertical>
                      <span>
                        {t('events.messages.notice')} · {m.content}
                      </span>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {m.createAt.slice(0, 16).replace('T', ' ')}
                      </Typography.Text>
                    </Flex>
                  )
                }
              />
            </List.Item>
          )}
        />
      )}
      <Flex justify="center" style={{ marginTop: 8 }}>
        <Button
          type="link"
          size="small"
          onClick={() => {
            setOpen(false);
            void navigate('/notification');
          }}
          data-testid="messages-view-all"
        >
          {t('notifications.viewAll')}
        </Button>
      </Flex>
    </div>
  );

  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      content={content}
    >
      <Button
        type="text"
        aria-label={t('events.messages.title')}
        data-testid="message-bell"
        icon={
          <Badge
            count={count.data ?? 0}
            size="small"
            overflowCount={99}
            data-testid="message-count"
          >
            <BellOutlined style={{ fontSize: 16 }} />
          </Badge>
        }
      />
    </Popover>
  );
}
