import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Command } from '@/shared/commands/api';
import { envelope, failure, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import { validCycle } from './api';
import { UploadCycleDialog } from './UploadCycleDialog';

const command = (status: Command['status']): Command => ({
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

const show = (onClose = () => {}) =>
  renderScreen(
    <UploadCycleDialog sn="GW-0001" plantId={3} reported={300} open onClose={onClose} />,
  );

const ok = () => document.getElementById('upload-cycle-ok') as HTMLButtonElement;

describe('UploadCycleDialog', () => {
  it('takes whole seconds from 10 to 3600 only', () => {
    expect(validCycle(10)).toBe(true);
    expect(validCycle(3600)).toBe(true);
    for (const bad of [9, 3601, 12.5, null, undefined]) expect(validCycle(bad)).toBe(false);
  });

  it('shows the reported cycle, sends the new one and closes once the gateway took it', async () => {
    const api = fakeHttp({
      'POST /api/v1/gateway/{sn}/uploadCycle': () => envelope(command('succeeded')),
    });
    const onClose = vi.fn();
    await show(onClose);
    expect(screen.getByText('The gateway reports every 300 s')).toBeTruthy();
    expect(ok().disabled).toBe(true);
    const input = screen.getByRole('spinbutton');
    fireEvent.change(input, { target: { value: '60' } });
    await waitFor(() => expect(ok().disabled).toBe(false));
    fireEvent.click(ok());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('POST /api/v1/gateway/{sn}/uploadCycle')).toMatchObject([
      { params: { sn: 'GW-0001' }, body: { uploadCycle: 60 } },
    ]);
  });

  it('says when the gateway did not take it or the server refused', async () => {
    const answers = [envelope(command('timed_out')), failure(2, 'No permission')];
    fakeHttp({ 'POST /api/v1/gateway/{sn}/uploadCycle': () => answers.shift()! });
    await show();
    fireEvent.change(screen.getByRole('spinbutton'), { target: { value: '120' } });
    await waitFor(() => expect(ok().disabled).toBe(false));
    fireEvent.click(ok());
    expect(await screen.findByText(/The gateway did not take the upload cycle/)).toBeTruthy();
    await waitFor(() => expect(ok().disabled).toBe(false));
    fireEvent.click(ok());
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('No permission'));
  });
});
