import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatewayRow } from '@/shared/api/gateways';
import { LIVE_REFRESH_MS } from '@/shared/api/live';
import { envelope, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import { RestartDialog } from './RestartDialog';
import type { BatchItem, BatchResult, CheckResult } from './api';
import { BACK_WITHIN_MS } from './follow';

const item = (sn: string, status: string, code = 0, msg = ''): BatchItem => ({
  sn,
  status,
  code,
  msg,
  success: status === 'ok' || status === 'succeeded',
  commandId: null,
  gatewayId: null,
  acceptedAt: null,
});

/** When the gateways of these tests accepted their restart (the server's clock). */
const ACCEPTED = Date.parse('2026-05-04T10:00:00Z');

/** A restart gateway `id` accepted at [ACCEPTED]. */
const accepted = (sn: string, id: number): BatchItem => ({
  ...item(sn, 'succeeded', 0, 'restarting'),
  commandId: 100 + id,
  gatewayId: id,
  acceptedAt: ACCEPTED,
});

/** Gateway `id`'s list row: signed in at `signedInAt`, last heard of at 09:59:55 UTC. */
const row = (id: number, sn: string, signedInAt: number | null) =>
  ({
    id,
    sn,
    online: true,
    signedInAt,
    lldt: '2026-05-04 09:59:55',
    lastMessageAt: '2026-05-04T09:59:55Z',
  }) as GatewayRow;

const page = (infos: GatewayRow[]) =>
  envelope({ pageNumber: 1, pageSize: 100, total: infos.length, infos });

const rowOf = (sn: string) =>
  screen.getAllByTestId('restart-follow-row').find((r) => r.dataset.sn === sn) as HTMLElement;

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
      items: [accepted('GW-0001', 1)],
    };
    const api = fakeHttp({
      'POST /api/v1/gateways/batch/check': () => envelope(check),
      'POST /api/v1/gateway/{gsns}/restart': () => envelope(done),
      'GET /api/v1/gateways': () => page([row(1, 'GW-0001', ACCEPTED - 3_600_000)]),
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
    // accepted is not done: the gateway is followed until it signs in again
    await waitFor(() => expect(rowOf('GW-0001').dataset.state).toBe('restarting'));
    expect(rowOf('GW-0001')).toHaveTextContent('Restarting…');
    expect(screen.getByTestId('restart-follow-note')).toHaveTextContent('up to 5 minutes');
    // the one the check refused keeps its row and its reason
    expect(rowOf('GW-0002').dataset.state).toBe('failed');
    expect(rowOf('GW-0002')).toHaveTextContent('Device offline');
    await waitFor(() =>
      expect(api.calls('GET /api/v1/gateways')).toMatchObject([
        { query: { ids: '1', limit: 100 } },
      ]),
    );
  });

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
  });
});

describe('RestartDialog following the restarted gateways', () => {
  afterEach(() => vi.useRealTimers());

  /** The dialog restarting `sns` (checked ready) with the server's `result`. */
  async function restart(sns: string[]) {
    await renderScreen(<RestartDialog open onClose={() => {}} fixed={sns} />);
    fireEvent.click(screen.getByTestId('restart-check'));
    await screen.findByTestId('restart-check-result');
    await waitFor(() => {
      if (!screen.queryByTestId('restart-result'))
        fireEvent.click(screen.getByTestId('restart-confirm'));
      expect(screen.getByTestId('restart-result')).toBeTruthy();
    });
  }

  const checked = (sns: string[]): CheckResult => ({
    total: sns.length,
    ready: sns.length,
    refused: 0,
    items: sns.map((sn) => item(sn, 'ok')),
  });

  it('shows each gateway restarting, then back online once it signs in again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let rows = [row(1, 'GW-A', ACCEPTED - 60_000), row(2, 'GW-B', ACCEPTED - 60_000)];
    const result: BatchResult = {
      total: 3,
      succeeded: 2,
      failed: 1,
      items: [
        accepted('GW-A', 1),
        accepted('GW-B', 2),
        item('GW-OFF', 'refused', 602, 'Device offline'),
      ],
    };
    const api = fakeHttp({
      'POST /api/v1/gateways/batch/check': () => envelope(checked(['GW-A', 'GW-B', 'GW-OFF'])),
      'POST /api/v1/batch/restart': () => envelope(result),
      'GET /api/v1/gateways': () => page(rows),
    });
    await restart(['GW-A', 'GW-B', 'GW-OFF']);
    await waitFor(() => expect(rowOf('GW-A').dataset.state).toBe('restarting'));
    expect(rowOf('GW-B').dataset.state).toBe('restarting');
    // refused: its reason, nothing to follow
    expect(rowOf('GW-OFF').dataset.state).toBe('failed');
    expect(rowOf('GW-OFF')).toHaveTextContent('Refused');
    expect(rowOf('GW-OFF')).toHaveTextContent('Device offline');
    expect(api.calls('GET /api/v1/gateways')[0]?.query).toMatchObject({ ids: '1,2' });

    // GW-A signs in again 31 s after the acceptance; GW-B only sends a message meanwhile
    const back = ACCEPTED + 31_000;
    rows = [row(1, 'GW-A', back), row(2, 'GW-B', ACCEPTED - 60_000)];
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS + 100));
    await waitFor(() => expect(rowOf('GW-A').dataset.state).toBe('back'));
    const time = new Date(back).toTimeString().slice(0, 8);
    expect(within(rowOf('GW-A')).getByTestId('batch-item-status')).toHaveTextContent(
      `Back online ${time}`,
    );
    expect(rowOf('GW-B').dataset.state).toBe('restarting');

    rows = [row(1, 'GW-A', back), row(2, 'GW-B', ACCEPTED + 40_000)];
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS + 100));
    await waitFor(() => expect(rowOf('GW-B').dataset.state).toBe('back'));
    expect(screen.getByTestId('restart-follow-note')).toHaveTextContent('2 of 2 back online');

    // all settled: the dialog stops asking
    const asked = api.calls('GET /api/v1/gateways').length;
    await act(() => vi.advanceTimersByTimeAsync(3 * LIVE_REFRESH_MS));
    expect(api.calls('GET /api/v1/gateways')).toHaveLength(asked);
  });

  it('says not back yet with the last message once the bound has passed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const result: BatchResult = {
      total: 1,
      succeeded: 1,
      failed: 0,
      items: [accepted('GW-A', 1)],
    };
    const api = fakeHttp({
      'POST /api/v1/gateways/batch/check': () => envelope(checked(['GW-A'])),
      'POST /api/v1/gateway/{gsns}/restart': () => envelope(result),
      'GET /api/v1/gateways': () => page([row(1, 'GW-A', ACCEPTED - 60_000)]),
    });
    await restart(['GW-A']);
    await waitFor(() => expect(rowOf('GW-A').dataset.state).toBe('restarting'));
    await act(() => vi.advanceTimersByTimeAsync(BACK_WITHIN_MS + LIVE_REFRESH_MS));
    await waitFor(() => expect(rowOf('GW-A').dataset.state).toBe('notBack'));
    expect(rowOf('GW-A')).toHaveTextContent('Not back yet');
    expect(rowOf('GW-A')).toHaveTextContent('within 5 minutes');
    // in the browser's time, as the time it came back would be
    const last = dayjs('2026-05-04T09:59:55Z').format('YYYY-MM-DD HH:mm:ss');
    expect(within(rowOf('GW-A')).getByTestId('restart-last-message')).toHaveTextContent(
      `${last} · `,
    );
    const asked = api.calls('GET /api/v1/gateways').length;
    await act(() => vi.advanceTimersByTimeAsync(3 * LIVE_REFRESH_MS));
    expect(api.calls('GET /api/v1/gateways')).toHaveLength(asked);
  });

  it('follows nothing when every restart was refused or failed', async () => {
    const result: BatchResult = {
      total: 2,
      succeeded: 0,
      failed: 2,
      items: [
        item('GW-OFF', 'refused', 602, 'Device offline'),
        { ...item('GW-MUTE', 'timed_out', 0, 'timed_out'), commandId: 7, gatewayId: 7 },
      ],
    };
    // no gateway list route: reading it would fail the test
    fakeHttp({
      'POST /api/v1/gateways/batch/check': () => envelope(checked(['GW-OFF', 'GW-MUTE'])),
      'POST /api/v1/batch/restart': () => envelope(result),
    });
    await restart(['GW-OFF', 'GW-MUTE']);
    expect(rowOf('GW-OFF').dataset.state).toBe('failed');
    expect(rowOf('GW-OFF')).toHaveTextContent('Device offline');
    expect(rowOf('GW-MUTE')).toHaveTextContent('Timed out');
    expect(screen.queryByTestId('restart-follow-note')).toBeNull();
    expect(screen.getByText('0 restarted, 2 failed')).toBeTruthy();
  });
});
