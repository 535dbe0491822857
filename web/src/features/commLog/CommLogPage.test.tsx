import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, failure, fakeHttp, reply, type Routes } from '@/test/http';
import { aPlant } from '@/test/plant';
import { renderScreen } from '@/test/render';
import type { LoggedContent, LoggedMessage, LoggerGateway } from './api';
import CommLogPage from './CommLogPage';

const page = <T,>(infos: T[]) => ({ pageSize: 10, pageNumber: 1, total: infos.length, infos });

const gateway: LoggerGateway = {
  id: 7,
  sn: 'GW0001',
  alias: 'Roof',
  plantId: 3,
  plantName: 'Sunny Farm',
  online: true,
  lastMessageAt: '2026-11-25T08:00:00Z',
  uplinks: 1234,
  downlinks: 5,
  lastLogAt: '2026-11-25 08:00:00',
};

const telemetry: LoggedMessage = {
  id: 41,
  sn: 'GW0001',
  direction: 'up',
  kind: 'telemetry',
  topic: 'portal/v1/GW0001/telemetry',
  size: 52,
  summary: '{"v":1,"sn":"INV1","pac":1200}',
  commandId: null,
  time: '2026-11-25 08:00:00',
  at: Date.UTC(2026, 10, 25, 8),
};

const content: LoggedContent = {
  id: 41,
  sn: 'GW0001',
  direction: 'up',
  kind: 'telemetry',
  topic: 'portal/v1/GW0001/telemetry',
  size: 52,
  truncated: false,
  payload: '{"v":1,"sn":"INV1","pac":1200}',
  commandId: null,
  time: '2026-11-25 08:00:00',
  at: Date.UTC(2026, 10, 25, 8),
};

const show = (route = '/log/communication') =>
  renderScreen(<CommLogPage />, {
    route,
    permissions: { permission: 'x', type: 0, children: [] },
  });

/** The server: the plant filter's one plant, and `routes`. */
const serve = (routes: Routes) =>
  fakeHttp({
    'GET /api/v1/plants': () => envelope(page([aPlant({ id: 3, name: 'Sunny Farm' })])),
    ...routes,
  });

describe('CommLogPage', () => {
  it('lists gateways, opens one, filters its messages and shows a payload indented', async () => {
    const api = serve({
      'GET /api/v1/logger': () => envelope(page([gateway])),
      'GET /api/v1/logger/page': () => envelope(page([telemetry])),
      'GET /api/v1/logger/content': () => envelope(content),
    });
    const asked = () => api.calls('GET /api/v1/logger/page').map((r) => r.query);
    const { location } = await show();
    const table = await screen.findByTestId('commlog-gateways');
    await within(table).findByText('Sunny Farm');
    expect(table).toHaveTextContent('1,234');

    fireEvent.click(within(table).getByTestId('commlog-gateway-open'));
    expect(await screen.findByTestId('commlog-gateway-title')).toHaveTextContent('GW0001');
    const messages = await screen.findByTestId('commlog-messages');
    await within(messages).findByText('{"v":1,"sn":"INV1","pac":1200}');
    expect(asked()[0]).toMatchObject({ sn: 'GW0001', page: 1, limit: 20 });
    expect(asked()[0]).not.toHaveProperty('direction');

    fireEvent.click(screen.getByText('Downlink'));
    await waitFor(() => expect(asked().at(-1)).toMatchObject({ sn: 'GW0001', direction: 'down' }));
    expect(location()).toContain('direction=down');

    fireEvent.click(within(messages).getByTestId('commlog-view'));
    const payload = await screen.findByTestId('commlog-payload');
    expect(payload.textContent).toBe('{\n  "v": 1,\n  "sn": "INV1",\n  "pac": 1200\n}');
    expect(payload.getAttribute('data-json')).toBe('true');
    expect(screen.queryByTestId('commlog-truncated')).toBeNull();

    // back to the gateways
    fireEvent.click(screen.getByTestId('commlog-back'));
    expect(await screen.findByTestId('commlog-gateways')).toBeInTheDocument();
  });

  it('finds the gateway a device reports through and shows its messages', async () => {
    serve({
      'GET /api/v1/logger/getInverterLogger/{sn}': ({ params }) =>
        params.sn === 'INV1' ? envelope(gateway) : failure(4, 'Parameter validation error: sn'),
      'GET /api/v1/logger/page': () => envelope(page<LoggedMessage>([])),
    });
    const { location } = await show('/log/communication?device=INV1');
    await waitFor(() => expect(location()).toContain('?sn=GW0001'));
    expect(await screen.findByText('No messages logged for this gateway')).toBeTruthy();
  });

  it('says when a device reports through no gateway the user may read', async () => {
    const api = serve({
      'GET /api/v1/logger/getInverterLogger/{sn}': () =>
        failure(4, 'Parameter validation error: sn'),
    });
    await show('/log/communication?device=NOPE');
    expect(await screen.findByTestId('commlog-no-gateway')).toHaveTextContent('NOPE');
    expect(api.calls('GET /api/v1/logger/getInverterLogger/{sn}')[0]?.params).toEqual({
      sn: 'NOPE',
    });
  });

  it('shows a failure with a retry, and an empty list', async () => {
    let lists = 0;
    serve({
      'GET /api/v1/logger': () => (lists++ === 0 ? reply(500) : envelope(page<LoggerGateway>([]))),
    });
    await show();
    const problem = await screen.findByTestId('commlog-gateways-error');
    fireEvent.click(within(problem).getByRole('button'));
    expect(await screen.findByText('No gateways to show')).toBeInTheDocument();
  });

  it('shows a cut binary payload as sent, with the warning', async () => {
    serve({
      'GET /api/v1/logger/page': () => envelope(page([{ ...telemetry, summary: '01 03' }])),
      'GET /api/v1/logger/content': () =>
        envelope({ ...content, payload: '01 03 04 00 0A', truncated: true }),
    });
    await show('/log/communication?sn=GW0001');
    fireEvent.click(await screen.findByTestId('commlog-view'));
    const payload = await screen.findByTestId('commlog-payload');
    expect(payload.textContent).toBe('01 03 04 00 0A');
    expect(payload.getAttribute('data-json')).toBe('false');
    expect(screen.getByTestId('commlog-truncated')).toBeInTheDocument();
  });
});
