import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { App } from 'antd';
import { describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { batchQuery, type BatchProgress, type BatchStart, type Upgrade } from './api';
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

function renderView(progress: BatchProgress) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity } },
  });
  client.setQueryData(batchQuery('b1').queryKey, progress);
  return render(
    <QueryClientProvider client={client}>
      <App>
        <BatchView start={start} target="inverter" />
      </App>
    </QueryClientProvider>,
  );
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
  it('shows each device live, the refusal with its reason, and cancel where supported', () => {
    renderView({
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
  }, 30_000);

  it('ends with the totals when nothing runs and offers no cancel', () => {
    renderView({
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
  }, 30_000);
});
