import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import MockAdapter from 'axios-mock-adapter';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { http } from '@/shared/http';
import type { LoggedContent, LoggedMessage, LoggerGateway } from './api';
import CommLogPage from './CommLogPage';

const ok = <T,>(data: T): [number, unknown] => [200, { code: 0, msg: 'Success', data }];
const failure = (code: number, msg: string): [number, unknown] => [200, { code, msg, data: null }];
const page = <T,>(infos: T[]) => ({ pageSize: 10, pageNumber: 1, total: infos.length, infos });
const SLOW = { timeout: 10_000 };

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

function Where() {
  const location = useLocation();
  return <div data-testid="where">{location.search}</div>;
}

function show(url = '/log/communication') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[url]}>
          <CommLogPage />
          <Where />
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

describe('CommLogPage', () => {
  let mock: MockAdapter;
  beforeEach(() => {
    mock = new MockAdapter(http.axios);
    mock.onGet('/api/v1/permission').reply(...ok({ permission: 'x', type: 0, children: [] }));
    mock.onGet('/api/v1/plants').reply(...ok(page([{ id: 3, name: 'Sunny Farm' }])));
  });
  afterEach(() => mock.restore());

  it('lists gateways, opens one, filters its messages and shows a payload indented', async () => {
    mock.onGet('/api/v1/logger').reply(...ok(page([gateway])));
    const asked: Record<string, unknown>[] = [];
    mock.onGet('/api/v1/logger/page').reply((config) => {
      asked.push(config.params as Record<string, unknown>);
      return ok(page([telemetry]));
    });
    mock.onGet('/api/v1/logger/content').reply(...ok(content));
    show();
    const table = await screen.findByTestId('commlog-gateways', {}, SLOW);
    await within(table).findByText('Sunny Farm', {}, SLOW);
    expect(table).toHaveTextContent('1,234');

    fireEvent.click(within(table).getByTestId('commlog-gateway-open'));
    expect(await screen.findByTestId('commlog-gateway-title', {}, SLOW)).toHaveTextContent(
      'GW0001',
    );
    const messages = await screen.findByTestId('commlog-messages', {}, SLOW);
    await within(messages).findByText('{"v":1,"sn":"INV1","pac":1200}', {}, SLOW);
    expect(asked[0]).toMatchObject({ sn: 'GW0001', page: 1, limit: 20 });
    expect(asked[0]).not.toHaveProperty('direction');

    fireEvent.click(screen.getByText('Downlink'));
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ sn: 'GW0001', direction: 'down' }));
    expect(screen.getByTestId('where')).toHaveTextContent('direction=down');

    fireEvent.click(within(messages).getByTestId('commlog-view'));
    const payload = await screen.findByTestId('commlog-payload', {}, SLOW);
    expect(payload.textContent).toBe('{\n  "v": 1,\n  "sn": "INV1",\n  "pac": 1200\n}');
    expect(payload.getAttribute('data-json')).toBe('true');
    expect(screen.queryByTestId('commlog-truncated')).toBeNull();

    // back to the gateways
    fireEvent.click(screen.getByTestId('commlog-back'));
    expect(await screen.findByTestId('commlog-gateways', {}, SLOW)).toBeInTheDocument();
  });

  it('finds the gateway a device reports through and shows its messages', async () => {
    mock
      .onGet('/api/v1/logger/getInverterLogger/INV1')
      .reply(...ok(gateway))
      .onGet('/api/v1/logger/getInverterLogger/NOPE')
      .reply(...failure(4, 'Parameter validation error: sn'));
    mock.onGet('/api/v1/logger/page').reply(...ok(page([])));
    show('/log/communication?device=INV1');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('?sn=GW0001'), SLOW);
    expect(await screen.findByText('No messages logged for this gateway', {}, SLOW)).toBeTruthy();
  });

  it('says when a device reports through no gateway the user may read', async () => {
    mock
      .onGet('/api/v1/logger/getInverterLogger/NOPE')
      .reply(...failure(4, 'Parameter validation error: sn'));
    show('/log/communication?device=NOPE');
    expect(await screen.findByTestId('commlog-no-gateway', {}, SLOW)).toHaveTextContent('NOPE');
  });

  it('shows a failure with a retry, and an empty list', async () => {
    mock
      .onGet('/api/v1/logger')
      .replyOnce(500)
      .onGet('/api/v1/logger')
      .reply(...ok(page([])));
    show();
    const problem = await screen.findByTestId('commlog-gateways-error', {}, SLOW);
    fireEvent.click(within(problem).getByRole('button'));
    expect(await screen.findByText('No gateways to show', {}, SLOW)).toBeInTheDocument();
  });

  it('shows a cut binary payload as sent, with the warning', async () => {
    mock.onGet('/api/v1/logger/page').reply(...ok(page([{ ...telemetry, summary: '01 03' }])));
    mock
      .onGet('/api/v1/logger/content')
      .reply(...ok({ ...content, payload: '01 03 04 00 0A', truncated: true }));
    show('/log/communication?sn=GW0001');
    fireEvent.click(await screen.findByTestId('commlog-view', {}, SLOW));
    const payload = await screen.findByTestId('commlog-payload', {}, SLOW);
    expect(payload.textContent).toBe('01 03 04 00 0A');
    expect(payload.getAttribute('data-json')).toBe('false');
    expect(screen.getByTestId('commlog-truncated')).toBeInTheDocument();
  });
});
