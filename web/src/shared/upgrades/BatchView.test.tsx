import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp } from '@/test/http';
import { screenWidth } from '@/test/media';
import { renderScreen } from '@/test/render';
import type { BatchProgress, BatchStart, Upgrade } from './api';
import { BatchView } from './BatchView';

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
  queuePosition: null,
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
  queued: 0,
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

  it('shows devices waiting for their gateway as queued with their place, and one leaves the queue', async () => {
    const sns = ['INV-1', 'INV-2', 'INV-3'];
    const ten: BatchStart = {
      batchId: 'b2',
      total: 3,
      sent: 3,
      refused: 0,
      results: sns.map((sn, k) => ({
        sn,
        success: true,
        code: 0,
        msg: '',
        upgrade: upgrade({
          sn,
          state: k === 0 ? 'sending' : 'queued',
          commandId: k === 0 ? 9 : null,
          queuePosition: k === 0 ? null : k,
          cancellable: k > 0,
        }),
      })),
    };
    let cancelled = false;
    const infos = () =>
      sns.map((sn, k) =>
        upgrade({
          sn,
          state: k === 0 ? 'upgrading' : k === 2 && cancelled ? 'cancelled' : 'queued',
          progress: k === 0 ? 45 : 0,
          commandId: k === 0 ? 9 : null,
          queuePosition: k === 0 || (k === 2 && cancelled) ? null : k,
          cancellable: k > 0 && !(k === 2 && cancelled),
        }),
      );
    const api = fakeHttp({
      'GET /api/v1/upgrade/batch/{id}': () =>
        envelope({
          batchId: 'b2',
          totals: {
            ...totals,
            total: 3,
            upgrading: 1,
            queued: cancelled ? 1 : 2,
            cancelled: cancelled ? 1 : 0,
            running: cancelled ? 2 : 3,
            progress: 15,
          },
          infos: infos(),
        }),
      'POST /api/v1/inverter/{sn}/cutUpgrade': () => {
        cancelled = true;
        return envelope({ upgrade: infos()[2] as Upgrade, cancelRequested: true });
      },
    });
    await renderScreen(<BatchView start={ten} target="inverter" />);
    await screen.findByText('Upgrading');
    const tags = () => screen.getAllByTestId('upgrade-state');
    expect(tags().map((s) => s.textContent)).toEqual(['Upgrading', 'Queued (1)', 'Queued (2)']);
    expect(tags()[1]?.getAttribute('data-position')).toBe('1');
    expect(screen.getAllByText('Waiting for its gateway')).toHaveLength(2);
    const sums = screen.getByTestId('upgrade-totals');
    expect(sums.getAttribute('data-done')).toBe('no');
    expect(within(sums).getByText('Queued').closest('.ant-statistic')?.textContent).toContain('2');
    // running: the one sent, not the ones waiting
    expect(within(sums).getByText('Running').closest('.ant-statistic')?.textContent).toBe(
      'Running1',
    );

    // the last one leaves the queue: no request to the device, the list shows it at once
    const buttons = screen.getAllByTestId('upgrade-cancel');
    expect(buttons).toHaveLength(2);
    fireEvent.click(buttons[1] as HTMLElement);
    await waitFor(() =>
      expect(tags().map((s) => s.textContent)).toEqual(['Upgrading', 'Queued (1)', 'Cancelled']),
    );
    expect(api.calls('POST /api/v1/inverter/{sn}/cutUpgrade')[0]?.params).toEqual({ sn: 'INV-3' });
    expect(await screen.findByText('INV-3 left the queue')).toBeTruthy();
  });

  it('shows a single queued upgrade in Chinese and Spanish', async () => {
    for (const [lang, label] of [
      ['zh', '排队中（4）'],
      ['es', 'En cola (4)'],
    ] as const) {
      const one = upgrade({ state: 'queued', commandId: null, queuePosition: 4 });
      fakeHttp({
        'GET /api/v1/upgrade/batch/{id}': () =>
          envelope({ batchId: 'b1', totals: { ...totals, queued: 1, running: 1 }, infos: [one] }),
      });
      const view = await renderScreen(
        <BatchView
          start={{ ...start, total: 1, refused: 0, results: [start.results[0]!] }}
          target="inverter"
        />,
        { language: lang },
      );
      expect(await screen.findByText(label)).toBeTruthy();
      view.unmount();
    }
  });

  it('fits a phone: the SN with its versions, and the state with its progress and cancel', async () => {
    screenWidth(390);
    const queued = upgrade({
      sn: 'INV-A',
      state: 'queued',
      commandId: null,
      queuePosition: 2,
      cancellable: true,
    });
    fakeHttp({
      'GET /api/v1/upgrade/batch/{id}': () =>
        envelope({ batchId: 'b1', totals: { ...totals, queued: 1, running: 1 }, infos: [queued] }),
    });
    await renderScreen(<BatchView start={start} target="inverter" />);
    await screen.findByText('Queued (2)');
    const table = screen.getByTestId('upgrade-rows');
    expect(table.querySelectorAll('thead th')).toHaveLength(2);
    const [row] = table.querySelectorAll('tbody tr.ant-table-row');
    const cells = [...(row?.querySelectorAll('td') ?? [])];
    expect(cells[0]?.textContent).toBe('INV-AV1_0 → V2_0');
    expect(within(cells[1] as HTMLElement).getByText('Waiting for its gateway')).toBeTruthy();
    expect(within(cells[1] as HTMLElement).getByTestId('upgrade-cancel')).toBeTruthy();
    // the refused device says why under its state
    expect(screen.getByText('Device offline')).toBeTruthy();
  });

  it('takes the queued upgrade of a gateway itself out of the queue', async () => {
    let cancelled = false;
    const own = () =>
      upgrade({
        sn: 'GW-1',
        target: 'gateway',
        state: cancelled ? 'cancelled' : 'queued',
        commandId: null,
        queuePosition: cancelled ? null : 1,
        cancellable: !cancelled,
      });
    const api = fakeHttp({
      'GET /api/v1/upgrade/batch/{id}': () =>
        envelope({
          batchId: 'b3',
          totals: { ...totals, queued: cancelled ? 0 : 1, cancelled: cancelled ? 1 : 0 },
          infos: [own()],
        }),
      'POST /api/v1/gateway/{id}/cutUpgrade': () => {
        cancelled = true;
        return envelope({ upgrade: own(), cancelRequested: true });
      },
    });
    const one: BatchStart = {
      batchId: 'b3',
      total: 1,
      sent: 1,
      refused: 0,
      results: [{ sn: 'GW-1', success: true, code: 0, msg: '', upgrade: own() }],
    };
    await renderScreen(<BatchView start={one} target="gateway" />);
    await screen.findByText('Queued (1)');
    fireEvent.click(screen.getByTestId('upgrade-cancel'));
    expect(await screen.findByText('GW-1 left the queue')).toBeTruthy();
    expect(api.calls('POST /api/v1/gateway/{id}/cutUpgrade')[0]?.params).toEqual({ id: 'GW-1' });
    expect(api.calls('POST /api/v1/inverter/{sn}/cutUpgrade')).toHaveLength(0);
  });
});
