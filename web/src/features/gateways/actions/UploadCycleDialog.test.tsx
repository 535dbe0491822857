import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import { ApiError } from '@/shared/http';
import { validCycle } from './api';
import { UploadCycleDialog } from './UploadCycleDialog';

const post = vi.fn();
vi.mock('@/shared/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/shared/http')>()),
  http: { post: (...args: unknown[]) => post(...args) as unknown },
}));

const command = (status: string) => ({
  id: 9,
  kind: 'set_params',
  deviceSn: 'GW-0001',
  gatewaySn: 'GW-0001',
  status,
  resultCode: status === 'succeeded' ? 0 : 2,
  message: '',
  result: null,
  createAt: '2026-11-22T07:00:00.000+00:00',
  updateAt: '2026-11-22T07:00:01Z',
});

function show(onClose = () => {}) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <App>
        <UploadCycleDialog sn="GW-0001" plantId={3} reported={300} open onClose={onClose} />
      </App>
    </QueryClientProvider>,
  );
}

const ok = () => document.getElementById('upload-cycle-ok') as HTMLButtonElement;

describe('UploadCycleDialog', () => {
  beforeEach(() => post.mockReset());

  it('takes whole seconds from 10 to 3600 only', () => {
    expect(validCycle(10)).toBe(true);
    expect(validCycle(3600)).toBe(true);
    for (const bad of [9, 3601, 12.5, null, undefined]) expect(validCycle(bad)).toBe(false);
  });

  it('shows the reported cycle, sends the new one and closes once the gateway took it', async () => {
    post.mockResolvedValue(command('succeeded'));
    const onClose = vi.fn();
    show(onClose);
    expect(screen.getByTestId('upload-cycle-reported').textContent).toBe(
      'The gateway reports every 300 s',
    );
    expect(ok().disabled).toBe(true);
    const input = screen.getByTestId('upload-cycle-input');
    fireEvent.change(input, { target: { value: '60' } });
    await waitFor(() => expect(ok().disabled).toBe(false));
    fireEvent.click(ok());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(post).toHaveBeenCalledWith(
      '/api/v1/gateway/GW-0001/uploadCycle',
      { uploadCycle: 60 },
      expect.anything(),
    );
  });

  it('says when the gateway did not take it or the server refused', async () => {
    post.mockResolvedValueOnce(command('timed_out'));
    show();
    fireEvent.change(screen.getByTestId('upload-cycle-input'), { target: { value: '120' } });
    await waitFor(() => expect(ok().disabled).toBe(false));
    fireEvent.click(ok());
    expect((await screen.findByTestId('upload-cycle-error')).textContent).toContain(
      'The gateway did not take the upload cycle',
    );
    post.mockRejectedValueOnce(new ApiError(2, 'No permission'));
    await waitFor(() => expect(ok().disabled).toBe(false), { timeout: 5000 });
    fireEvent.click(ok());
    await waitFor(() =>
      expect(screen.getByTestId('upload-cycle-error').textContent).toContain('No permission'),
    );
  });
});
