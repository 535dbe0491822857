import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import DebugToolboxPage from './DebugToolboxPage';

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

const show = (route: string) =>
  renderScreen(<DebugToolboxPage />, {
    route,
    permissions: { permission: 'inverter.debug', type: 1 },
  });

describe('DebugToolboxPage', () => {
  it('builds a read frame, sends it to the device of the link and shows the decoded reply', async () => {
    const api = fakeHttp({
      'POST /api/v1/gateway/{sn}/debug': () => envelope(exchange),
      'GET /api/v1/debug/reply': () =>
        envelope({ ...exchange, status: 'succeeded', reply: '01 03 02 00 64 B9 AF' }),
    });
    await show('/debug?kind=gateway&sn=GW-0001');
    expect(screen.getByTestId('rtu-frame').textContent).toContain('01 03 00 00 00 01 84 0A');
    expect((screen.getByTestId('debug-sn') as HTMLInputElement).value).toBe('GW-0001');

    fireEvent.click(screen.getByTestId('debug-send'));
    await waitFor(() =>
      expect(api.calls('POST /api/v1/gateway/{sn}/debug')).toMatchObject([
        { params: { sn: 'GW-0001' }, body: { code: '01 03 00 00 00 01 84 0A' } },
      ]),
    );
    expect((await screen.findByTestId('debug-reply')).textContent).toContain('01 03 02 00 64');
    expect(screen.getByTestId('debug-status').textContent).toBe('Answered');
    expect(await screen.findByTestId('reply-view')).toBeTruthy();
  });
});
