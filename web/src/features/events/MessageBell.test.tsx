import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { MessageItem } from './api';
import { MessageBell } from './MessageBell';

const notice: MessageItem = {
  id: 3,
  source: 'notice',
  title: 'Firmware update available',
  content: 'Three-phase HV: version V2_0 (inv94_2_0.bin)',
  type: 'info',
  status: 0,
  resolved: false,
  createAt: '2026-05-04T10:00:00.000+00:00',
  plantId: null,
  sn: null,
  event: null,
};

const serve = (infos: MessageItem[]) =>
  fakeHttp({
    'GET /api/v1/message/count': () => envelope(infos.length),
    'GET /api/v1/messages': () =>
      envelope({ pageSize: 10, pageNumber: 1, total: infos.length, infos }),
    'POST /api/v1/message/{id}/read': () => envelope(null),
  });

describe('MessageBell notices', () => {
  it('shows a notice with its text and marks it read as a notice', async () => {
    const api = serve([notice]);
    await renderScreen(<MessageBell />);
    fireEvent.click(screen.getByTestId('message-bell'));
    const item = await screen.findByTestId('message-item');
    expect(item.getAttribute('data-source')).toBe('notice');
    expect(within(item).getByText('Firmware update available')).toBeTruthy();
    expect(within(item).getByText(/Notice · Three-phase HV: version V2_0/)).toBeTruthy();
    fireEvent.click(item);
    await waitFor(() =>
      expect(api.calls('POST /api/v1/message/{id}/read')).toMatchObject([
        { params: { id: '3' }, query: { source: 'notice' } },
      ]),
    );
  });

  it('opens the Notification screen from "View all"', async () => {
    serve([]);
    const view = await renderScreen(<MessageBell />);
    fireEvent.click(screen.getByTestId('message-bell'));
    fireEvent.click(await screen.findByTestId('messages-view-all'));
    await waitFor(() => expect(view.location()).toBe('/notification'));
  });
});
