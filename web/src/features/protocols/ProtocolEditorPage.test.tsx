import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { afterGuard } from '@/test/guard';
import { envelope, failure, fakeHttp, reply, type Routes } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { Schemas } from '@/shared/api/schema';
import type { PreviewAnswer } from './api';
import type { ProtocolConfig } from './config';
import ProtocolEditorPage from './ProtocolEditorPage';
import ProtocolsPage from './ProtocolsPage';

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

/** The list or the editor, as `route` names, for a user holding `keys`. */
const show = (route: string, keys: string[]) =>
  renderScreen(<ProtocolsPage />, {
    route,
    path: '/management/protocol',
    routes: { '/management/protocol/:code': <ProtocolEditorPage /> },
    permissions: tree(keys),
  });

/**
 * A decoding as the server answers it. The document has a point's `value` as any JSON value
 * (an object to the generated types), the screen reads it as a number, text or null.
 */
const preview = (answer: PreviewAnswer) => answer as unknown as Schemas['PreviewAnswer'];

/** The server: the meter config, and `routes`. */
const serve = (routes: Routes = {}) =>
  fakeHttp({
    'GET /api/v1/logger/function/{code}': ({ params }) =>
      params.code === 'meter-3ph' ? envelope(METER) : failure(4, 'Invalid parameter: code'),
    ...routes,
  });

describe('protocol configs', () => {
  it('lists the configs; "New" needs the edit right', async () => {
    serve({
      'GET /api/v1/logger/functions': () =>
        envelope([
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
    });
    await show('/management/protocol', ['sys.protocol.view']);
    const code = await screen.findByTestId('protocol-row-code');
    expect(code).toHaveAttribute('href', '/management/protocol/meter-3ph');
    expect(screen.getByTestId('protocol-table')).toHaveTextContent('Built in');
    expect(screen.queryByTestId('protocol-new')).toBeNull();
  });

  it('shows a failed list with a retry', async () => {
    let lists = 0;
    serve({
      'GET /api/v1/logger/functions': () => (lists++ === 0 ? reply(500) : envelope([])),
    });
    await show('/management/protocol', ['sys.protocol.view']);
    const problem = await screen.findByTestId('protocols-error');
    fireEvent.click(within(problem).getByRole('button'));
    expect(await screen.findByText('No protocol configs')).toBeInTheDocument();
  });

  it('is read-only without the edit right', async () => {
    serve();
    await show('/management/protocol/meter-3ph', ['sys.protocol.view']);
    const scales = await screen.findAllByTestId('point-scale');
    expect(scales[0]).toBeDisabled();
    expect(screen.queryByTestId('protocol-save')).toBeNull();
  });

  it('saves a changed scale, and shows the server’s problems', async () => {
    let saves = 0;
    const api = serve({
      'POST /api/v1/logger/function': () =>
        saves++ === 0
          ? failure(4, 'Parameter validation error: invalid config: frequency: scale')
          : envelope({ code: 'meter-3ph', version: 4 }),
    });
    const saved = () => api.calls('POST /api/v1/logger/function');
    await show('/management/protocol/meter-3ph', ['sys.protocol.view', 'sys.protocol.edit']);
    const save = await screen.findByTestId('protocol-save');
    expect(save).toBeDisabled();
    fireEvent.change(screen.getAllByTestId('point-scale')[1] as HTMLElement, {
      target: { value: '0.1' },
    });
    fireEvent.click(screen.getByTestId('protocol-save'));
    expect(await screen.findByTestId('protocol-problems')).toHaveTextContent('frequency: scale');
    const sent = saved()[0]?.body as ProtocolConfig;
    expect(sent.points[1]).toEqual({
      key: 'frequency',
      unit: 'Hz',
      address: 1,
      data_type: 'u16',
      scale: 0.1,
    });
    await afterGuard(screen.getByTestId('protocol-save'));
    fireEvent.click(screen.getByTestId('protocol-save'));
    await waitFor(() => expect(saved()).toHaveLength(2));
  });

  it('decodes a captured frame with the config as edited', async () => {
    const api = serve({
      'POST /api/v1/logger/function/preview': () =>
        envelope(
          preview({
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
        ),
    });
    await show('/management/protocol/meter-3ph', ['sys.protocol.view']);
    fireEvent.click(await screen.findByText('Test against a captured frame'));
    const frame = await screen.findByTestId('preview-frame');
    fireEvent.change(frame, { target: { value: 'zz' } });
    fireEvent.click(screen.getByTestId('preview-run'));
    expect(await screen.findByText('Hex digits, whole bytes only')).toBeInTheDocument();
    fireEvent.change(frame, { target: { value: '08 fd 13 88' } });
    await afterGuard(screen.getByTestId('preview-run'));
    fireEvent.click(screen.getByTestId('preview-run'));
    expect(await screen.findByTestId('preview-value-frequency')).toHaveTextContent('50 Hz');
    expect(screen.getByTestId('preview-problems')).toHaveTextContent('power: not in the frame');
    expect(screen.getByTestId('preview-value-voltage_a')).toHaveTextContent('230.1 V');
    expect(screen.getByTestId('preview-summary')).toHaveTextContent(
      'Read as register data: 2 registers from 0',
    );
    // points outside the frame only on request
    expect(screen.queryByTestId('preview-value-power')).toBeNull();
    fireEvent.click(screen.getByTestId('preview-all'));
    expect(await screen.findByTestId('preview-value-power')).toHaveTextContent('--');
    const body = api.calls('POST /api/v1/logger/function/preview')[0]?.body as {
      frame: string;
      config: ProtocolConfig;
    };
    expect(body.frame).toBe('08FD1388');
    expect(body.config.code).toBe('meter-3ph');
    expect(body).not.toHaveProperty('start');
  });
});
