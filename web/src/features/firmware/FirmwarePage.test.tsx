import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { envelope, failure, fakeHttp, networkError } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { FirmwareItem, InverterTypeNode } from './api';
import { aFirmware as fw } from './fixtures';
import GatewayFirmwarePage from './GatewayFirmwarePage';
import InverterFirmwarePage from './InverterFirmwarePage';

const label = (id: number, name: string, codes: number[], firmwareCount = 0): InverterTypeNode => ({
  id,
  parentId: 1,
  name,
  sort: 0,
  codes,
  firmwareCount,
  children: [],
});
const TREE: InverterTypeNode[] = [
  {
    id: 1,
    parentId: null,
    name: 'Hybrid',
    sort: 0,
    codes: [],
    firmwareCount: 1,
    children: [label(11, 'Three-phase HV', [94], 1), label(12, 'Single-phase LV', [2])],
  },
];

const permissions = (keys: string[]) => ({
  permission: 'firmware.management',
  type: 0,
  children: [
    {
      permission: 'firmware.inverter.view',
      type: 0,
      children: keys
        .filter((k) => k.startsWith('firmware.inverter.') || k === 'firmware.enable')
        .map((permission) => ({ permission, type: 1 })),
    },
    {
      permission: 'firmware.gateway.view',
      type: 0,
      children: keys
        .filter((k) => k === 'firmware.gateway.edit')
        .map((permission) => ({ permission, type: 1 })),
    },
  ],
});

/** The server: the type tree, a list of `rows`, every version taken. */
function serve(rows: FirmwareItem[] = [fw()]) {
  const page = () => envelope({ pageSize: 10, pageNumber: 1, total: rows.length, infos: rows });
  return fakeHttp({
    'GET /api/v1/firmware/inverterTypes': () => envelope(TREE),
    'GET /api/v1/firmware/page': page,
    'GET /api/v1/firmware/gateway/page': page,
    'GET /api/v1/firmware/check': () => failure(4002, 'Firmware software version number duplicate'),
    'GET /api/v1/firmware/{id}/changeEnable': () => envelope(fw({ enabled: true })),
  });
}

/** A firmware screen for a user with the given keys. */
const show = (page: ReactNode, keys: string[]) =>
  renderScreen(page, { permissions: permissions(keys) });

const EDIT = ['firmware.inverter.edit', 'firmware.enable'];

describe('inverter firmware', () => {
  it('lists firmware beside the type tree; no changes without the keys', async () => {
    serve();
    await show(<InverterFirmwarePage />, []);
    const row = await screen.findByTestId('firmware-row-name');
    expect(row).toHaveTextContent('Hybrid HV');
    const table = screen.getByTestId('firmware-table');
    expect(table).toHaveTextContent('V2_0');
    expect(table).toHaveTextContent('PN-10');
    expect(table).toHaveTextContent('Three-phase HV');
    expect(await screen.findByText('Single-phase LV')).toBeTruthy();
    expect(screen.queryByTestId('firmware-upload')).toBeNull();
    expect(screen.queryByTestId('type-add-title')).toBeNull();
    expect(screen.queryByTestId('action-firmware-delete')).toBeNull();
    expect(screen.getByTestId('firmware-enabled-switch')).toBeDisabled();
  });

  it('filters the list by the chosen label', async () => {
    const api = serve();
    await show(<InverterFirmwarePage />, []);
    fireEvent.click(await screen.findByText('Single-phase LV'));
    await waitFor(() =>
      expect(api.calls('GET /api/v1/firmware/page').map((r) => r.query)).toContainEqual(
        expect.objectContaining({ typeId: 12 }),
      ),
    );
  });

  it('enables firmware after confirmation, notifying the owners when asked', async () => {
    const api = serve();
    await show(<InverterFirmwarePage />, EDIT);
    fireEvent.click(await screen.findByTestId('firmware-enabled-switch'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Enable Hybrid HV V2_0?');
    fireEvent.click(within(dialog).getByTestId('firmware-notify'));
    fireEvent.click(within(dialog).getByTestId('firmware-toggle-ok'));
    await waitFor(() =>
      expect(api.calls('GET /api/v1/firmware/{id}/changeEnable')).toHaveLength(1),
    );
    const [toggled] = api.calls('GET /api/v1/firmware/{id}/changeEnable');
    expect(toggled?.path).toBe('/api/v1/firmware/5/changeEnable');
    expect(toggled?.query).toMatchObject({ enable: true, notify: true });
  });

  it('says why a type with labels cannot be deleted', async () => {
    const api = serve();
    await show(<InverterFirmwarePage />, EDIT);
    const hybrid = await screen.findByText('Hybrid', { selector: '[data-name="Hybrid"] *' });
    const node = hybrid.closest('[data-testid="type-node"]') as HTMLElement;
    fireEvent.click(within(node).getByTestId('row-actions-menu'));
    fireEvent.click(await screen.findByTestId('action-type-delete'));
    expect(await screen.findByText('Type has a subtype and cannot be deleted')).toBeTruthy();
    expect(api.calls('GET /api/v1/firmware/inverterType/{id}/delete')).toEqual([]);
  });

  it('shows a taken version at the field when it loses focus', async () => {
    serve();
    await show(<InverterFirmwarePage />, EDIT);
    fireEvent.click(await screen.findByTestId('firmware-upload'));
    const version = await screen.findByTestId('firmware-version');
    fireEvent.change(version, { target: { value: 'V2_0' } });
    fireEvent.blur(version);
    expect(await screen.findByText('This version already exists')).toBeTruthy();
  });

  it('refuses a file that is not .bin or .hex before sending anything', async () => {
    const api = serve();
    await show(<InverterFirmwarePage />, EDIT);
    fireEvent.click(await screen.findByTestId('firmware-upload'));
    const input = (await screen.findByTestId('firmware-file')).querySelector(
      'input[type="file"]',
    ) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'firmware.zip')] } });
    fireEvent.click(screen.getByTestId('firmware-save'));
    expect(await screen.findByText('Only .bin or .hex files are allowed')).toBeTruthy();
    expect(api.calls('POST /api/v1/firmware/save')).toEqual([]);
  });

  it('offers a retry when the list fails', async () => {
    serve().on({ 'GET /api/v1/firmware/page': () => networkError() });
    await show(<InverterFirmwarePage />, []);
    expect(await screen.findByTestId('firmware-error')).toHaveTextContent(
      'The firmware list could not be loaded',
    );
  });
});

describe('gateway firmware', () => {
  it('lists gateway software without a type tree; uploads with gateway.edit', async () => {
    const api = serve([fw({ target: 'gateway', type: 0, typeName: '' })]);
    await show(<GatewayFirmwarePage />, ['firmware.gateway.edit']);
    expect(await screen.findByTestId('firmware-row-name')).toHaveTextContent('Hybrid HV');
    expect(screen.queryByTestId('type-tree')).toBeNull();
    expect(screen.getByTestId('firmware-upload')).toBeTruthy();
    expect(screen.getByTestId('firmware-enabled-switch')).not.toBeDisabled();
    expect(api.calls('GET /api/v1/firmware/gateway/page')).not.toEqual([]);
  });
});
