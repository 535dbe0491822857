import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import { ApiError } from '@/shared/http';
import { UpgradeDialog } from './UpgradeDialog';

// jsdom has no ResizeObserver; antd's select and table measure themselves with one
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

describe('UpgradeDialog, a gateway already up to date', () => {
  it('warns with 4001 and upgrades anyway with force', async () => {
    get.mockImplementation((url: string) => {
      if (url === '/api/v1/firmware')
        return Promise.resolve({
          total: 1,
          infos: [{ id: 8, version: 'G1_4', fileName: 'gw_1_4.bin' }],
        });
      return Promise.reject(new Error(`unexpected ${url}`));
    });
    post
      .mockRejectedValueOnce(new ApiError(4001, 'Gateway firmware is up to date'))
      .mockRejectedValueOnce(new Error('stop here'));
    render(
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <App>
          <UpgradeDialog open onClose={() => undefined} target="gateway" fixed={['GW-1']} />
        </App>
      </QueryClientProvider>,
    );
    await screen.findByTestId('upgrade-firmware');
    const select = screen.getByRole('combobox');
    fireEvent.mouseDown(select);
    fireEvent.click(await screen.findByText('G1_4 · gw_1_4.bin'));
    fireEvent.click(screen.getByTestId('upgrade-start'));
    expect(await screen.findByTestId('upgrade-up-to-date')).toHaveTextContent(
      'The gateway firmware is up to date',
    );
    fireEvent.click(screen.getByTestId('upgrade-force'));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2));
    expect(post.mock.calls[1]?.[0]).toBe('/api/v1/gateway/GW-1/upgrade');
    expect(post.mock.calls[1]?.[2]).toMatchObject({ params: { firmId: 8, force: true } });
  }, 30_000);
});
