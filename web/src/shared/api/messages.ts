import { queryOptions } from '@tanstack/react-query';
import { api } from './client';
import { messageKeys } from './keys';
import type { Schemas } from './schema';

/**
 * A message (GET /api/v1/messages): a warning or fault occurrence (`source` "event"), or a
 * notice such as "a firmware update is available" (`source` "notice", no event, no plant).
 * The bell and the Notification screen both read and mark them.
 */
export type MessageItem = Schemas['Message'];

/** Marks one message read; notices have ids of their own, told apart by `source`. */
export const readMessage = (m: Pick<MessageItem, 'id' | 'source'>) =>
  api.post('/api/v1/message/{id}/read', {
    body: {},
    path: { id: m.id },
    ...(m.source === 'notice' ? { query: { source: 'notice' } } : {}),
  });

/** Everything up to now is read. */
export const readAllMessages = () => api.post('/api/v1/messages/read', { body: {} });

/** Unread messages: the bell's count. */
export const messageCountQuery = queryOptions({
  queryKey: messageKeys.count,
  queryFn: () => api.get('/api/v1/message/count', { silent: true }),
  refetchInterval: 60_000,
});
