import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MessageItem } from '@/shared/api/messages';
import { defaults } from '@/shared/list/params';
import { envelope, fakeHttp, reply } from '@/test/http';
import { renderScreen } from '@/test/render';
import { messageLinks, NOTIFICATION_FILTERS, notificationParams } from './api';
import NotificationsPage from './NotificationsPage';

const page = <T,>(infos: T[]) => ({ pageSize: 20, pageNumber: 1, total: infos.length, infos });

const fault: MessageItem = {
  id: 5,
  source: 'event',
  title: 'Sunny Farm · INV1',
  content: 'F13 Grid over-voltage',
  type: 'fault',
  status: 0,
  resolved: false,
  createAt: '2026-11-25T08:00:00.000+00:00',
  plantId: 3,
  sn: 'INV1',
  event: {
    id: 5,
    occurrenceId: 5,
    code: 'F13',
    level: 3,
    meaning: 'Grid over-voltage',
    occurTime: '2026-11-25 09:00:00',
    recoverTime: null,
    severity: 'fault',
    solution: null,
    status: 'open',
    timezone: 'Europe/Madrid',
    updateAt: '2026-11-25T08:00:00Z',
    alias: null,
    deviceCount: 1,
    devices: [],
    deviceType: 'inverter',
    openCount: 1,
    plantId: 3,
    plantName: 'Sunny Farm',
    sn: 'INV1',
    type: 1,
  } as unknown as MessageItem['event'],
};

// the same id as the fault: ids are per source
const notice: MessageItem = {
  id: 5,
  source: 'notice',
  title: 'Firmware update available',
  content: 'Three-phase HV: version V2_0',
  type: 'info',
  status: 1,
  resolved: false,
  createAt: '2026-11-24T10:00:00.000+00:00',
  plantId: null,
  sn: null,
  event: null,
};

describe('notificationParams', () => {
  const q = defaults(NOTIFICATION_FILTERS, 20);
  it('asks for every message by default', () => {
    expect(notificationParams(q)).toEqual({ pageNumber: 1, pageSize: 20, status: -1 });
  });
  it('maps read state and kind to status, source and type', () => {
    expect(notificationParams({ ...q, read: 'unread', kind: 'fault', page: 2 })).toEqual({
      pageNumber: 2,
      pageSize: 20,
      status: 0,
      source: 'event',
      type: 'fault',
    });
    expect(notificationParams({ ...q, read: 'read', kind: 'notice' })).toEqual({
      pageNumber: 1,
      pageSize: 20,
      status: 1,
      source: 'notice',
    });
  });
});

describe('messageLinks', () => {
  it('leads an event to its plant and device, a notice nowhere', () => {
    expect(messageLinks(fault)).toEqual({
      plant: { to: '/plants/overview/3/0', name: 'Sunny Farm' },
      device: { to: '/device/inverter/INV1', sn: 'INV1' },
    });
    expect(messageLinks(notice)).toEqual({ plant: null, device: null });
  });
});

const show = (route = '/notification') => renderScreen(<NotificationsPage />, { route });

describe('NotificationsPage', () => {
  it('lists messages of both sources, filters them and marks one read', async () => {
    let unread = 1;
    const api = fakeHttp({
      'GET /api/v1/message/count': () => envelope(unread),
      'GET /api/v1/messages': () => envelope(page([{ ...fault, status: unread ? 0 : 1 }, notice])),
      'POST /api/v1/message/{id}/read': () => {
        unread = 0;
        return envelope(null);
      },
      'POST /api/v1/messages/read': () => envelope(null),
    });
    const asked = () => api.calls('GET /api/v1/messages').map((r) => r.query);
    await show();
    const table = await screen.findByTestId('notifications-table');
    await within(table).findByText('Sunny Farm · INV1');
    expect(table).toHaveTextContent('Firmware update available');
    expect(table).toHaveTextContent('2026-11-25 09:00:00 (Europe/Madrid)');
    expect(within(table).getByTestId('notification-plant')).toHaveAttribute(
      'href',
      '/plants/overview/3/0',
    );
    expect(await screen.findByTestId('notifications-unread')).toHaveTextContent('Unread: 1');

    fireEvent.click(screen.getByText('Unread'));
    await waitFor(() => expect(asked().at(-1)).toMatchObject({ status: 0 }));

    fireEvent.click(within(table).getByTestId('notification-read'));
    await waitFor(() => expect(api.calls('POST /api/v1/message/{id}/read')).toHaveLength(1));
    const [read] = api.calls('POST /api/v1/message/{id}/read');
    expect(read?.path).toBe('/api/v1/message/5/read');
    expect(read?.query).not.toHaveProperty('source');
    expect(api.calls('POST /api/v1/messages/read')).toEqual([]);
    await waitFor(() => expect(screen.queryByTestId('notifications-unread')).toBeNull());
    expect(screen.getByTestId('notifications-read-all')).toBeDisabled();
  });

  it('marks all read', async () => {
    let unread = 2;
    const api = fakeHttp({
      'GET /api/v1/message/count': () => envelope(unread),
      'GET /api/v1/messages': () => envelope(page([fault])),
      'POST /api/v1/messages/read': () => {
        unread = 0;
        return envelope(null);
      },
    });
    await show();
    const all = await screen.findByTestId('notifications-read-all');
    await waitFor(() => expect(all).toBeEnabled());
    fireEvent.click(all);
    expect(await screen.findByText('All messages marked as read')).toBeTruthy();
    await waitFor(() => expect(all).toBeDisabled());
    expect(api.calls('POST /api/v1/messages/read')).toHaveLength(1);
  });

  it('says when nothing matches, and when loading failed', async () => {
    let lists = 0;
    fakeHttp({
      'GET /api/v1/message/count': () => envelope(0),
      'GET /api/v1/messages': () => (lists++ === 0 ? reply(500) : envelope(page<MessageItem>([]))),
    });
    await show('/notification?kind=fault');
    const problem = await screen.findByTestId('notifications-error');
    fireEvent.click(within(problem).getByRole('button'));
    expect(await screen.findByText('No message matches these filters')).toBeInTheDocument();
  });

  it('points to the alarm cases waiting for acknowledgement, for those who may see them', async () => {
    const api = fakeHttp({
      'GET /api/v1/message/count': () => envelope(0),
      'GET /api/v1/messages': () => envelope(page<MessageItem>([])),
      'GET /api/v1/alarm/cases': () =>
        envelope({ pageSize: 1, pageNumber: 1, total: 3, infos: [] }),
    });
    await renderScreen(<NotificationsPage />, {
      route: '/notification',
      permissions: [{ permission: 'event.view', type: 0 }],
    });
    const note = await screen.findByTestId('notifications-open-cases');
    expect(note).toHaveTextContent('Alarm cases waiting for acknowledgement: 3');
    expect(within(note).getByRole('link')).toHaveAttribute('href', '/alarms?state=open');
    expect(api.calls('GET /api/v1/alarm/cases')[0]?.query).toMatchObject({
      state: 'open',
      limit: 1,
    });
  });

  it('asks for no alarm cases without the right to see events', async () => {
    const api = fakeHttp({
      'GET /api/v1/message/count': () => envelope(0),
      'GET /api/v1/messages': () => envelope(page<MessageItem>([])),
    });
    await show();
    await screen.findByTestId('notifications-table');
    expect(api.calls('GET /api/v1/alarm/cases')).toEqual([]);
    expect(screen.queryByTestId('notifications-open-cases')).toBeNull();
  });
});
