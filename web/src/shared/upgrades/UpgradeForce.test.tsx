import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, failure, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { Firmware } from './api';
import { UpgradeDialog } from './UpgradeDialog';

const firmware: Firmware = {
  id: 8,
  version: 'G1_4',
  fileName: 'gw_1_4.bin',
  changeLog: '',
  changeLogEn: '',
  codes: [],
  createAt: '2026-11-20T10:00:00.000+00:00',
  creator: 'admin',
  enabled: true,
  firmwareType: 'gateway',
  hardwareVersion: '',
  inUse: false,
  manufacturer: '',
  name: 'Gateway 1.4',
  parentTypeId: null,
  parentTypeName: '',
  partNumber: '',
  productId: null,
  productName: '',
  size: 1024,
  target: 'gateway',
  type: 0,
  typeName: '',
  updateAt: '2026-11-20T10:00:00.000+00:00',
  upgradeMode: 'iap',
};

describe('UpgradeDialog, a device already up to date', () => {
  it('warns with 4001 and upgrades anyway with force', async () => {
    const api = fakeHttp({
      'GET /api/v1/firmware': () =>
        envelope({
          pageNumber: 1,
          pageSize: 10,
          total: 1,
          infos: [firmware],
        }),
      'POST /api/v1/gateway/{id}/upgrade': () => failure(4001, 'Firmware is already up to date'),
    });
    await renderScreen(
      <UpgradeDialog open onClose={() => undefined} target="gateway" fixed={['GW-1']} />,
    );
    await screen.findByTestId('upgrade-firmware');
    const select = screen.getByRole('combobox');
    fireEvent.mouseDown(select);
    fireEvent.click(await screen.findByText('G1_4 · gw_1_4.bin'));
    fireEvent.click(screen.getByTestId('upgrade-start'));
    expect(await screen.findByTestId('upgrade-up-to-date')).toHaveTextContent(
      'The firmware is already up to date',
    );
    fireEvent.click(screen.getByTestId('upgrade-force'));
    await waitFor(() => expect(api.calls('POST /api/v1/gateway/{id}/upgrade')).toHaveLength(2));
    expect(api.calls('POST /api/v1/gateway/{id}/upgrade')[1]).toMatchObject({
      params: { id: 'GW-1' },
      query: { firmId: 8, force: true },
    });
  });

  it('warns of inverters already on the version in a batch and upgrades them anyway', async () => {
    const inverterFirmware: Firmware = {
      ...firmware,
      id: 12,
      version: 'V2_0',
      fileName: 'inv_2_0.bin',
      target: 'inverter',
      firmwareType: 'ARM',
    };
    const outcome = (sn: string, state: 'sending' | 'queued', position: number | null) => ({
      sn,
      success: true,
      code: 0,
      msg: '',
      upgrade: {
        id: position ?? 0,
        batchId: 'b9',
        sn,
        target: 'inverter',
        firmId: 12,
        version: 'V2_0',
        fromVersion: 'V2_0',
        commandId: state === 'queued' ? null : 5,
        state,
        queuePosition: position,
        progress: 0,
        message: '',
        reason: null,
        cancellable: state === 'queued',
        startTime: '2026-11-20T10:00:00.000+00:00',
        finishTime: null,
        updateAt: '2026-11-20T10:00:00Z',
      },
    });
    const api = fakeHttp({
      'GET /api/v1/firmware': () =>
        envelope({ pageNumber: 1, pageSize: 10, total: 1, infos: [inverterFirmware] }),
      'POST /api/v1/inverter/batchUpgrade': () =>
        envelope({
          batchId: 'b8',
          total: 2,
          sent: 1,
          refused: 1,
          results: [
            outcome('INV-A', 'sending', null),
            {
              sn: 'INV-B',
              success: false,
              code: 4001,
              msg: 'Firmware is already up to date',
              upgrade: null,
            },
          ],
        }),
      // the one left is sent again alone, forced: it waits behind INV-A on their gateway
      'POST /api/v1/inverter/{sn}/upgrade': () => envelope(outcome('INV-B', 'queued', 1).upgrade),
      'GET /api/v1/upgrade/batch/{id}': () =>
        envelope({
          batchId: 'b9',
          totals: {
            total: 1,
            queued: 1,
            sending: 0,
            upgrading: 0,
            successful: 0,
            failed: 0,
            cancelled: 0,
            running: 1,
            progress: 0,
          },
          infos: [outcome('INV-B', 'queued', 1).upgrade],
        }),
    });
    await renderScreen(
      <UpgradeDialog open onClose={() => undefined} target="inverter" fixed={['INV-A', 'INV-B']} />,
    );
    await screen.findByTestId('upgrade-firmware');
    fireEvent.mouseDown(screen.getByRole('combobox'));
    fireEvent.click(await screen.findByText('V2_0 · inv_2_0.bin'));
    fireEvent.click(screen.getByTestId('upgrade-start'));
    const warning = await screen.findByTestId('upgrade-up-to-date');
    expect(warning).toHaveTextContent('The firmware is already up to date');
    expect(warning).toHaveTextContent('INV-B');
    fireEvent.click(screen.getByTestId('upgrade-force'));
    await waitFor(() => expect(api.calls('POST /api/v1/inverter/{sn}/upgrade')).toHaveLength(1));
    expect(api.calls('POST /api/v1/inverter/{sn}/upgrade')[0]).toMatchObject({
      params: { sn: 'INV-B' },
      query: { firmId: 12, force: true },
    });
    expect(await screen.findByText('Queued (1)')).toBeTruthy();
  });
});
