import { queryOptions } from '@tanstack/react-query';
import { commandKeys } from '../api/keys';
import type { Schemas } from '../api/schema';
import { api } from '../api/client';

/** A command's state: open while sent or acknowledged, then final. */
export type CommandState = Schemas['CommandState'];

/** A command sent to a device, as GET /api/v1/command/{id} shows it. */
export type Command = Schemas['Command'];

/** Still waiting for the device (a debug exchange's statuses are a command's). */
export function isOpen(status: string): boolean {
  return status === 'sent' || status === 'acknowledged';
}

/** A command's status, polled every second until it is final. */
export const commandQuery = (id: number | null) =>
  queryOptions({
    queryKey: commandKeys.one(id),
    queryFn: () => api.get('/api/v1/command/{id}', { path: { id: id ?? 0 } }),
    enabled: id !== null,
    refetchInterval: (query) => {
      const data = query.state.data;
      return !data || isOpen(data.status) ? 1000 : false;
    },
  });
