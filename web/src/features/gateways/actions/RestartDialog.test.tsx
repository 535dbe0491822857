import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import { RestartDialog } from './RestartDialog';
import type { BatchResult, CheckResult } from './api';

const item = (sn: string, status: string, code = 0, msg = '') => ({
  sn,
  status,
  code,
  msg,
  success: status === 'ok' || status === 'succeeded',
  commandId: null,
});

const show = (fixed?: string[]) =>
  renderScreen(<RestartDialog open onClose={() => {}} fixed={fixed} />);

describe('RestartDialog', () => {
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
    const api = fakeHttp({
      'POST /api/v1/gateways/batch/check': () => envelope(check),
      'POST /api/v1/gateway/{gsns}/restart': () => envelope(done),
    });
    await show();
    fireEvent.change(screen.getByTestId('restart-sns'), {
      target: { value: 'GW-0001\nGW-0002, GW-0001' },
    });
    fireEvent.click(screen.getByTestId('restart-check'));
    await screen.findByText('1 of 2 can be restarted');
    expect(api.calls('POST /api/v1/gateways/batch/check')).toMatchObject([
      { body: { sns: ['GW-0001', 'GW-0002'], action: 'restart' } },
    ]);
    expect(screen.getByText('Device offline')).toBeTruthy();
    // the check says what is ready, and that nothing has succeeded yet
    const checked = screen.getByTestId('restart-check-result-totals').textContent ?? '';
    expect(checked).toContain('Ready1');
    expect(checked).toContain('Refused1');
    expect(checked).not.toContain('Succeeded');
    // the button is ready once the check has settled
    await waitFor(() => {
      const restarts = api.calls('POST /api/v1/gateway/{gsns}/restart');
      if (restarts.length < 1) fireEvent.click(screen.getByTestId('restart-confirm'));
      expect(restarts).toHaveLength(1);
    });
    await screen.findByText('1 restarted, 0 failed');
    // one gateway goes through its own route
    expect(api.calls('POST /api/v1/gateway/{gsns}/restart')).toMatchObject([
      { params: { gsns: 'GW-0001' } },
    ]);
    expect(screen.getByTestId('restart-result').textContent).toContain('Done');
    expect(screen.getByTestId('restart-result-totals').textContent).toContain('Succeeded1');
  }, 30_000);

  it('offers no restart when every gateway failed the check', async () => {
    const check: CheckResult = {
      total: 1,
      ready: 0,
      refused: 1,
      items: [item('GW-0009', 'refused', 305, 'Gateway does not exist')],
    };
    fakeHttp({ 'POST /api/v1/gateways/batch/check': () => envelope(check) });
    await show(['GW-0009']);
    fireEvent.click(screen.getByTestId('restart-check'));
    await screen.findByText('Gateway does not exist');
    await waitFor(() =>
      expect(screen.getByTestId('restart-confirm').hasAttribute('disabled')).toBe(true),
    );
  }, 30_000);
});
