import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import { messageCountQuery, messageListQuery, type MessageItem } from './api';
import { MessageBell } from './MessageBell';

// jsdom has no ResizeObserver; antd's list measures itself with one
if (!('ResizeObserver' in globalThis)) {
  Object.defineProperty(globalThis, 'ResizeObserver', {
    configurable: true,
    value: class {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    },
  });
}

const get = vi.fn();
const post = vi.fn();
vi.mock('@/shared/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/shared/http')>()),
  http: {
    get: (...args: unknown[]) => get(...args) as unknown,
    post: (...args: unknown[]) => post(...args) as unknown,
  },
}));

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

describe('MessageBell notices', () => {
  it('shows a notice with its text and marks it read as a notice', async () => {
    get.mockRejectedValue(new Error('not needed'));
    post.mockResolvedValue(null);
    const c = new QueryClient({
      defaultOptions: { queries: { retry: false, staleTime: Infinity } },
    });
    c.setQueryData(messageCountQuery.queryKey, 1);
    c.setQueryData(messageListQuery().queryKey, {
      pageSize: 10,
      pageNumber: 1,
      total: 1,
      infos: [notice],
    });
    render(
      <QueryClientProvider client={c}>
        <MemoryRouter>
          <App>
            <MessageBell />
          </App>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByTestId('message-bell'));
    const item = await screen.findByTestId('message-item');
    expect(item.getAttribute('data-source')).toBe('notice');
    expect(within(item).getByText('Firmware update available')).toBeTruthy();
    expect(within(item).getByText(/Notice · Three-phase HV: version V2_0/)).toBeTruthy();
    fireEvent.click(item);
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/api/v1/message/3/read',
        {},
        { params: { source: 'notice' } },
      ),
    );
  });

  it('opens the Notification screen from "View all"', async () => {
    get.mockRejectedValue(new Error('not needed'));
    const c = new QueryClient({
      defaultOptions: { queries: { retry: false, staleTime: Infinity } },
    });
    c.setQueryData(messageCountQuery.queryKey, 0);
    c.setQueryData(messageListQuery().queryKey, {
      pageSize: 10,
      pageNumber: 1,
      total: 0,
      infos: [],
    });
    function Where() {
      return <div data-testid="where">{useLocation().pathname}</div>;
    }
    render(
      <QueryClientProvider client={c}>
        <MemoryRouter>
          <App>
            <MessageBell />
            <Where />
          </App>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByTestId('message-bell'));
    fireEvent.click(await screen.findByTestId('messages-view-all'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/notification'));
  });
});
