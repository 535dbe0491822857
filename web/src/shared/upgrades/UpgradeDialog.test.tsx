import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { BatchProgress, BatchStart, Upgrade } from './api';
import { BatchView } from './UpgradeDialog';

const upgrade = (patch: Partial<Upgrade>): Upgrade => ({
  id: 1,
  batchId: 'b1',
  sn: 'INV-A',
  target: 'inverter',
  firmId: 3,
  version: 'V2_0',
  fromVersion: 'V1_0',
  commandId: 9,
  state: 'sending',
  progress: 0,
  message: '',
  cancellable: false,
  startTime: '2026-05-04T10:00:00.000+00:00',
  finishTime: null,
  updateAt: '2026-05-04T10:00:00Z',
  reason: null,
  ...patch,
});

const start: BatchStart = {
  batchId: 'b1',
  total: 2,
  sent: 1,
  refused: 1,
  results: [
    { sn: 'INV-A', success: true, code: 0, msg: '', upgrade: upgrade({}) },
    { sn: 'INV-B', success: false, code: 602, msg: 'Device offline', upgrade: null },
  ],
};

/** The view of batch b1, its progress as the server answers it; resolves once it is shown. */
async function renderView(progress: BatchProgress) {
  const api = fakeHttp({ 'GET /api/v1/upgrade/batch/{id}': () => envelope(progress) });
  await renderScreen(<BatchView start={start} target="inverter" />);
  await screen.findByText(progress.infos[0]?.state === 'successful' ? 'Successful' : 'Upgrading');
  expect(api.calls('GET /api/v1/upgrade/batch/{id}')[0]?.params).toEqual({ id: 'b1' });
}

const totals = {
  total: 1,
  sending: 0,
  upgrading: 0,
  successful: 0,
  failed: 0,
  cancelled: 0,
  running: 0,
  progress: 0,
};

describe('BatchView', () => {
  it('shows each device live, the refusal with its reason, and cancel where supported', async () => {
    await renderView({
      batchId: 'b1',
      totals: { ...totals, upgrading: 1, running: 1, progress: 60 },
      infos: [upgrade({ state: 'upgrading', progress: 60, cancellable: true })],
    });
    const states = screen.getAllByTestId('upgrade-state').map((s) => s.textContent);
    expect(states).toEqual(['Upgrading', 'Refused']);
    expect(screen.getByText('Device offline')).toBeTruthy();
    expect(screen.getByTestId('upgrade-cancel')).toBeTruthy();
    const sums = screen.getByTestId('upgrade-totals');
    expect(sums.getAttribute('data-done')).toBe('no');
    // the refusal counts as failed among the two devices
    expect(within(sums).getByText('Total').closest('.ant-statistic')?.textContent).toContain('2');
    expect(within(sums).getByText('Failed').closest('.ant-statistic')?.textContent).toContain('1');
  });

  it('ends with the totals when nothing runs and offers no cancel', async () => {
    await renderView({
      batchId: 'b1',
      totals: { ...totals, successful: 1, progress: 100 },
      infos: [
        upgrade({
          state: 'successful',
          progress: 100,
          finishTime: '2026-05-04T10:01:00.000+00:00',
        }),
      ],
    });
    expect(screen.getAllByTestId('upgrade-state')[0]?.textContent).toBe('Successful');
    expect(screen.queryByTestId('upgrade-cancel')).toBeNull();
    const sums = screen.getByTestId('upgrade-totals');
    expect(sums.getAttribute('data-done')).toBe('yes');
    expect(within(sums).getByText('Succeeded').closest('.ant-statistic')?.textContent).toContain(
      '1',
    );
  });
});
