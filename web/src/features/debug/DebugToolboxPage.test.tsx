import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import { permissionQuery } from '@/shared/permissions';
import DebugToolboxPage from './DebugToolboxPage';

const post = vi.fn();
const get = vi.fn();
vi.mock('@/shared/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/shared/http')>()),
  http: {
    post: (...args: unknown[]) => post(...args) as unknown,
    get: (...args: unknown[]) => get(...args) as unknown,
  },
}));

// jsdom has no ResizeObserver; antd's table measures itself with one
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

const exchange = {
  id: 1,
  commandId: 9,
  sn: 'GW-0001',
  gatewaySn: 'GW-0001',
  targetKind: 'gateway',
  account: 'admin',
  plantId: null,
  plantName: null,
  request: '01 03 00 00 00 01 84 0A',
  reply: null,
  status: 'sent',
  message: '',
  createAt: '2026-05-04T10:00:00Z',
  replyAt: null,
};

function show(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(permissionQuery().queryKey, {
    routes: new Set<string>(),
    buttons: new Set(['inverter.debug']),
    buttonsByRoute: new Map(),
  });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <App>
          <DebugToolboxPage />
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('DebugToolboxPage', () => {
  beforeEach(() => {
    post.mockReset();
    get.mockReset();
  });

  it('builds a read frame, sends it to the device of the link and shows the decoded reply', async () => {
    post.mockResolvedValueOnce(exchange);
    get.mockResolvedValue({ ...exchange, status: 'succeeded', reply: '01 03 02 00 64 B9 AF' });
    show('/debug?kind=gateway&sn=GW-0001');
    expect(screen.getByTestId('rtu-frame').textContent).toContain('01 03 00 00 00 01 84 0A');
    expect((screen.getByTestId('debug-sn') as HTMLInputElement).value).toBe('GW-0001');

    fireEvent.click(screen.getByTestId('debug-send'));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/api/v1/gateway/GW-0001/debug',
        { code: '01 03 00 00 00 01 84 0A' },
        expect.anything(),
      ),
    );
    expect((await screen.findByTestId('debug-reply')).textContent).toContain('01 03 02 00 64');
    expect(screen.getByTestId('debug-status').textContent).toBe('Answered');
    expect(await screen.findByTestId('reply-view')).toBeTruthy();
  });
});
