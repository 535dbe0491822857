import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import { ApiError } from '@/shared/http';
import type { FirmwareItem, InverterTypeNode } from './api';
import GatewayFirmwarePage from './GatewayFirmwarePage';
import InverterFirmwarePage from './InverterFirmwarePage';

const get = vi.fn();
const post = vi.fn();
vi.mock('@/shared/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/shared/http')>()),
  http: {
    get: (...args: unknown[]) => get(...args) as unknown,
    post: (...args: unknown[]) => post(...args) as unknown,
  },
}));

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

const fw = (over: Partial<FirmwareItem> = {}): FirmwareItem => ({
  id: 5,
  name: 'Hybrid HV',
  fileName: 'inv94_2_0.bin',
  size: 300 * 1024,
  version: 'V2_0',
  target: 'inverter',
  type: 11,
  typeName: 'Three-phase HV',
  parentTypeId: 1,
  parentTypeName: 'Hybrid',
  codes: [94],
  productId: null,
  manufacturer: 'Acme',
  productName: 'HV-10K',
  partNumber: 'PN-10',
  hardwareVersion: 'H1',
  upgradeMode: 'iap',
  firmwareType: 'DSP',
  changeLog: '修复',
  changeLogEn: 'Fixes',
  enabled: false,
  creator: 'Admin',
  createAt: '2026-05-04 10:00:00',
  updateAt: '2026-05-04 10:00:00',
  inUse: false,
  ...over,
});

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

function answer(keys: string[], rows: FirmwareItem[] = [fw()]) {
  get.mockImplementation((url: string) => {
    if (url === '/api/v1/permission') return Promise.resolve(permissions(keys));
    if (url === '/api/v1/firmware/inverterTypes') return Promise.resolve(TREE);
    if (url === '/api/v1/firmware/page' || url === '/api/v1/firmware/gateway/page')
      return Promise.resolve({ pageSize: 10, pageNumber: 1, total: rows.length, infos: rows });
    if (url === '/api/v1/firmware/check')
      return Promise.reject(new ApiError(4002, 'Firmware software version number duplicate'));
    if (url === '/api/v1/firmware/5/changeEnable') return Promise.resolve(fw({ enabled: true }));
    return Promise.reject(new Error(`unexpected ${url}`));
  });
}

const show = (page: React.ReactNode) =>
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <MemoryRouter>
        <App>{page}</App>
      </MemoryRouter>
    </QueryClientProvider>,
  );

const EDIT = ['firmware.inverter.edit', 'firmware.enable'];

describe('inverter firmware', () => {
  beforeEach(() => {
    get.mockReset();
    post.mockReset();
  });

  it('lists firmware beside the type tree; no changes without the keys', async () => {
    answer([]);
    show(<InverterFirmwarePage />);
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
    answer([]);
    show(<InverterFirmwarePage />);
    fireEvent.click(await screen.findByText('Single-phase LV'));
    await waitFor(() =>
      expect(get).toHaveBeenCalledWith(
        '/api/v1/firmware/page',
        expect.objectContaining({ params: expect.objectContaining({ typeId: 12 }) }),
      ),
    );
  });

  it('enables firmware after confirmation, notifying the owners when asked', async () => {
    answer(EDIT);
    show(<InverterFirmwarePage />);
    fireEvent.click(await screen.findByTestId('firmware-enabled-switch'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Enable Hybrid HV V2_0?');
    fireEvent.click(within(dialog).getByTestId('firmware-notify'));
    fireEvent.click(within(dialog).getByTestId('firmware-toggle-ok'));
    await waitFor(() =>
      expect(get).toHaveBeenCalledWith('/api/v1/firmware/5/changeEnable', {
        params: { enable: true, notify: true },
      }),
    );
  });

  it('says why a type with labels cannot be deleted', async () => {
    answer(EDIT);
    show(<InverterFirmwarePage />);
    const hybrid = await screen.findByText('Hybrid', { selector: '[data-name="Hybrid"] *' });
    const node = hybrid.closest('[data-testid="type-node"]') as HTMLElement;
    fireEvent.click(within(node).getByTestId('row-actions-menu'));
    fireEvent.click(await screen.findByTestId('action-type-delete'));
    expect(await screen.findByText('Type has a subtype and cannot be deleted')).toBeTruthy();
    expect(get).not.toHaveBeenCalledWith(
      '/api/v1/firmware/inverterType/1/delete',
      expect.anything(),
    );
  });

  it('shows a taken version at the field when it loses focus', async () => {
    answer(EDIT);
    show(<InverterFirmwarePage />);
    fireEvent.click(await screen.findByTestId('firmware-upload'));
    const version = await screen.findByTestId('firmware-version');
    fireEvent.change(version, { target: { value: 'V2_0' } });
    fireEvent.blur(version);
    expect(await screen.findByText('This version already exists')).toBeTruthy();
  });

  it('refuses a file that is not .bin or .hex before sending anything', async () => {
    answer(EDIT);
    show(<InverterFirmwarePage />);
    fireEvent.click(await screen.findByTestId('firmware-upload'));
    const input = (await screen.findByTestId('firmware-file')).querySelector(
      'input[type="file"]',
    ) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'firmware.zip')] } });
    fireEvent.click(screen.getByTestId('firmware-save'));
    expect(await screen.findByText('Only .bin or .hex files are allowed')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
  });

  it('offers a retry when the list fails', async () => {
    answer([]);
    const base = get.getMockImplementation() as (url: string) => Promise<unknown>;
    get.mockImplementation((url: string) =>
      url === '/api/v1/firmware/page' ? Promise.reject(new Error('down')) : base(url),
    );
    show(<InverterFirmwarePage />);
    expect(await screen.findByTestId('firmware-error')).toHaveTextContent(
      'The firmware list could not be loaded',
    );
  });
});

describe('gateway firmware', () => {
  beforeEach(() => {
    get.mockReset();
    post.mockReset();
  });

  it('lists gateway software without a type tree; uploads with gateway.edit', async () => {
    answer(['firmware.gateway.edit'], [fw({ target: 'gateway', type: 0, typeName: '' })]);
    show(<GatewayFirmwarePage />);
    expect(await screen.findByTestId('firmware-row-name')).toHaveTextContent('Hybrid HV');
    expect(screen.queryByTestId('type-tree')).toBeNull();
    expect(screen.getByTestId('firmware-upload')).toBeTruthy();
    expect(screen.getByTestId('firmware-enabled-switch')).not.toBeDisabled();
    expect(get).toHaveBeenCalledWith('/api/v1/firmware/gateway/page', expect.anything());
  });
});
