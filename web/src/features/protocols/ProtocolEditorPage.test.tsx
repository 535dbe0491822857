import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import MockAdapter from 'axios-mock-adapter';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { http } from '@/shared/http';
import type { ProtocolConfig } from './config';
import ProtocolEditorPage from './ProtocolEditorPage';
import ProtocolsPage from './ProtocolsPage';
import { afterGuard } from '@/test/guard';

const ok = <T,>(data: T): [number, unknown] => [200, { code: 0, msg: 'Success', data }];
const failure = (code: number, msg: string): [number, unknown] => [200, { code, msg, data: null }];
const SLOW = { timeout: 10_000 };

const METER: ProtocolConfig = {
  code: 'meter-3ph',
  name: 'Three-phase meter',
  family: 'meter',
  version: 3,
  unit_id: 1,
  points: [
    { key: 'voltage_a', unit: 'V', address: 0, data_type: 'u16', scale: 0.1 },
    { key: 'frequency', unit: 'Hz', address: 1, data_type: 'u16', scale: 0.01 },
  ],
};

function tree(keys: string[]) {
  return {
    permission: 'system.management',
    type: 0,
    children: keys.map((k) => ({ permission: k, type: k.endsWith('.edit') ? 1 : 0, children: [] })),
  };
}

function show(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/management/protocol" element={<ProtocolsPage />} />
            <Route path="/management/protocol/:code" element={<ProtocolEditorPage />} />
          </Routes>
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

describe('protocol configs', () => {
  let mock: MockAdapter;
  beforeEach(() => {
    mock = new MockAdapter(http.axios);
    mock.onGet('/api/v1/logger/function/meter-3ph').reply(...ok(METER));
  });
  afterEach(() => mock.restore());

  it('lists the configs; "New" needs the edit right', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['sys.protocol.view'])));
    mock.onGet('/api/v1/logger/functions').reply(
      ...ok([
        {
          code: 'meter-3ph',
          family: 'meter',
          name: 'Three-phase meter',
          builtin: true,
          points: 2,
          version: 3,
          updateAt: '2026-05-01T10:00:00.000+00:00',
        },
      ]),
    );
    show('/management/protocol');
    const code = await screen.findByTestId('protocol-row-code', {}, SLOW);
    expect(code).toHaveAttribute('href', '/management/protocol/meter-3ph');
    expect(screen.getByTestId('protocol-table')).toHaveTextContent('Built in');
    expect(screen.queryByTestId('protocol-new')).toBeNull();
  });

  it('shows a failed list with a retry', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['sys.protocol.view'])));
    mock
      .onGet('/api/v1/logger/functions')
      .replyOnce(500)
      .onGet('/api/v1/logger/functions')
      .reply(...ok([]));
    show('/management/protocol');
    const problem = await screen.findByTestId('protocols-error', {}, SLOW);
    fireEvent.click(within(problem).getByRole('button'));
    expect(await screen.findByText('No protocol configs', {}, SLOW)).toBeInTheDocument();
  });

  it('is read-only without the edit right', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['sys.protocol.view'])));
    show('/management/protocol/meter-3ph');
    const scales = await screen.findAllByTestId('point-scale', {}, SLOW);
    expect(scales[0]).toBeDisabled();
    expect(screen.queryByTestId('protocol-save')).toBeNull();
  });

  it('saves a changed scale, and shows the server’s problems', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['sys.protocol.view', 'sys.protocol.edit'])));
    mock
      .onPost('/api/v1/logger/function')
      .replyOnce(...failure(4, 'Parameter validation error: invalid config: frequency: scale'))
      .onPost('/api/v1/logger/function')
      .reply(...ok({ code: 'meter-3ph', version: 4 }));
    show('/management/protocol/meter-3ph');
    const save = await screen.findByTestId('protocol-save', {}, SLOW);
    expect(save).toBeDisabled();
    fireEvent.change(screen.getAllByTestId('point-scale')[1] as HTMLElement, {
      target: { value: '0.1' },
    });
    fireEvent.click(screen.getByTestId('protocol-save'));
    expect(await screen.findByTestId('protocol-problems', {}, SLOW)).toHaveTextContent(
      'frequency: scale',
    );
    const sent = JSON.parse(mock.history.post[0]?.data as string) as ProtocolConfig;
    expect(sent.points[1]).toEqual({
      key: 'frequency',
      unit: 'Hz',
      address: 1,
      data_type: 'u16',
      scale: 0.1,
    });
    await afterGuard(screen.getByTestId('protocol-save'));
    fireEvent.click(screen.getByTestId('protocol-save'));
    await waitFor(() => expect(mock.history.post.length).toBe(2), SLOW);
  });

  it('decodes a captured frame with the config as edited', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['sys.protocol.view'])));
    mock.onPost('/api/v1/logger/function/preview').reply(
      ...ok({
        format: 'registers',
        start: 0,
        registers: 2,
        values: [
          {
            key: 'voltage_a',
            name: 'voltage_a',
            unit: 'V',
            value: 230.10000000000002,
            raw: '08 FD',
          },
          { key: 'frequency', name: 'frequency', unit: 'Hz', value: 50, raw: '13 88' },
          { key: 'power', name: 'power', unit: 'W', value: null, raw: '' },
        ],
        problems: ['power: not in the frame'],
      }),
    );
    show('/management/protocol/meter-3ph');
    fireEvent.click(await screen.findByText('Test against a captured frame', {}, SLOW));
    const frame = await screen.findByTestId('preview-frame');
    fireEvent.change(frame, { target: { value: 'zz' } });
    fireEvent.click(screen.getByTestId('preview-run'));
    expect(await screen.findByText('Hex digits, whole bytes only', {}, SLOW)).toBeInTheDocument();
    fireEvent.change(frame, { target: { value: '08 fd 13 88' } });
    await afterGuard(screen.getByTestId('preview-run'));
    fireEvent.click(screen.getByTestId('preview-run'));
    expect(await screen.findByTestId('preview-value-frequency', {}, SLOW)).toHaveTextContent(
      '50 Hz',
    );
    expect(screen.getByTestId('preview-problems')).toHaveTextContent('power: not in the frame');
    expect(screen.getByTestId('preview-value-voltage_a')).toHaveTextContent('230.1 V');
    expect(screen.getByTestId('preview-summary')).toHaveTextContent(
      'Read as register data: 2 registers from 0',
    );
    // points outside the frame only on request
    expect(screen.queryByTestId('preview-value-power')).toBeNull();
    fireEvent.click(screen.getByTestId('preview-all'));
    expect(await screen.findByTestId('preview-value-power')).toHaveTextContent('--');
    const body = JSON.parse(mock.history.post[0]?.data as string) as {
      frame: string;
      config: ProtocolConfig;
    };
    expect(body.frame).toBe('08FD1388');
    expect(body.config.code).toBe('meter-3ph');
    expect(body).not.toHaveProperty('start');
  });
});
