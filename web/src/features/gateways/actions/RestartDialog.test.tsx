import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import { RestartDialog } from './RestartDialog';
import type { BatchResult, CheckResult } from './api';

const post = vi.fn();
vi.mock('@/shared/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/shared/http')>()),
  http: { post: (...args: unknown[]) => post(...args) as unknown },
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

const item = (sn: string, status: string, code = 0, msg = '') => ({
  sn,
  status,
  code,
  msg,
  success: status === 'ok' || status === 'succeeded',
  commandId: null,
});

function show(fixed?: string[]) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <App>
        <RestartDialog open onClose={() => {}} fixed={fixed} />
      </App>
    </QueryClientProvider>,
  );
}

describe('RestartDialog', () => {
  beforeEach(() => post.mockReset());

  it('checks first, restarts only the gateways that passed, and shows the totals', async () => {
    const check: CheckResult = {
      total: 2,
      ready: 1,
      refused: 1,
      items: [item('GW-0001', 'ok'), item('GW-0002', 'refused', 602, 'Device offline')],
    };
    const done: BatchResult = {
      total: 1,
      succeeded: 1,
      failed: 0,
      items: [item('GW-0001', 'succeeded')],
    };
    post.mockResolvedValueOnce(check).mockResolvedValueOnce(done);
    show();
    fireEvent.change(screen.getByTestId('restart-sns'), {
      target: { value: 'GW-0001\nGW-0002, GW-0001' },
    });
    fireEvent.click(screen.getByTestId('restart-check'));
    await screen.findByText('1 of 2 can be restarted');
    expect(post).toHaveBeenLastCalledWith('/api/v1/gateways/batch/check', {
      sns: ['GW-0001', 'GW-0002'],
      action: 'restart',
    });
    expect(screen.getByText('Device offline')).toBeTruthy();
    // the check says what is ready, and that nothing has succeeded yet
    const checked = screen.getByTestId('restart-check-result-totals').textContent ?? '';
    expect(checked).toContain('Ready1');
    expect(checked).toContain('Refused1');
    expect(checked).not.toContain('Succeeded');
    // the button is ready once the check has settled
    await waitFor(() => {
      if (post.mock.calls.length < 2) fireEvent.click(screen.getByTestId('restart-confirm'));
      expect(post).toHaveBeenCalledTimes(2);
    });
    await screen.findByText('1 restarted, 0 failed');
    // one gateway goes through its own route
    expect(post).toHaveBeenLastCalledWith('/api/v1/gateway/GW-0001/restart');
    expect(screen.getByTestId('restart-result').textContent).toContain('Done');
    expect(screen.getByTestId('restart-result-totals').textContent).toContain('Succeeded1');
  }, 30_000);

  it('offers no restart when every gateway failed the check', async () => {
    post.mockResolvedValueOnce({
      total: 1,
      ready: 0,
      refused: 1,
      items: [item('GW-0009', 'refused', 305, 'Gateway does not exist')],
    } satisfies CheckResult);
    show(['GW-0009']);
    fireEvent.click(screen.getByTestId('restart-check'));
    await screen.findByText('Gateway does not exist');
    await waitFor(() =>
      expect(screen.getByTestId('restart-confirm').hasAttribute('disabled')).toBe(true),
    );
  }, 30_000);
});
