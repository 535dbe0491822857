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

describe('UpgradeDialog, a gateway already up to date', () => {
  it('warns with 4001 and upgrades anyway with force', async () => {
    const api = fakeHttp({
      'GET /api/v1/firmware': () =>
        envelope({
          pageNumber: 1,
          pageSize: 10,
          total: 1,
          infos: [firmware],
        }),
      'POST /api/v1/gateway/{id}/upgrade': () => failure(4001, 'Gateway firmware is up to date'),
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
      'The gateway firmware is up to date',
    );
    fireEvent.click(screen.getByTestId('upgrade-force'));
    await waitFor(() => expect(api.calls('POST /api/v1/gateway/{id}/upgrade')).toHaveLength(2));
    expect(api.calls('POST /api/v1/gateway/{id}/upgrade')[1]).toMatchObject({
      params: { id: 'GW-1' },
      query: { firmId: 8, force: true },
    });
  }, 30_000);
});
