import { describe, expect, it } from 'vitest';
import { isApiError } from '@/shared/http';
import { defaults } from '@/shared/list/params';
import { envelope, failure, fakeHttp } from '@/test/http';
import {
  batchDeleteFirmware,
  changeEnabled,
  checkFirmware,
  FIRMWARE_FILTERS,
  firmwareFormData,
  firmwareParams,
  saveFirmware,
  typeNameTaken,
} from './api';
import { aFirmware } from './fixtures';

describe('list parameters', () => {
  it('sends the search, the enabled filter and (inverters only) the type', () => {
    const first = defaults(FIRMWARE_FILTERS, 10);
    expect(firmwareParams('inverter', first)).toEqual({ page: 1, limit: 10 });
    const q = { ...first, keyword: ' v2 ', typeId: 11, enabled: 'true' as const, page: 3 };
    expect(firmwareParams('inverter', q)).toEqual({
      page: 3,
      limit: 10,
      keyword: 'v2',
      typeId: 11,
      enabled: 'true',
    });
    expect(firmwareParams('gateway', q)).toEqual({
      page: 3,
      limit: 10,
      keyword: 'v2',
      enabled: 'true',
    });
  });
});

describe('the multipart body', () => {
  it('sends trimmed fields, the label for inverters and the file when one was chosen', () => {
    const file = new File([new Uint8Array([1, 2, 3])], 'inv_2.bin');
    const form = firmwareFormData('inverter', {
      name: ' Hybrid ',
      version: 'V2_0 ',
      typeId: 11,
      productId: null,
      upgradeMode: 'iap',
      enabled: true,
      file,
    });
    expect(form.get('name')).toBe('Hybrid');
    expect(form.get('version')).toBe('V2_0');
    expect(form.get('typeId')).toBe('11');
    expect(form.get('productId')).toBe('');
    expect(form.get('enabled')).toBe('true');
    expect((form.get('file') as File).name).toBe('inv_2.bin');
  });
  it('sends gateway software without label, mode or id', () => {
    const form = firmwareFormData('gateway', {
      id: 4,
      name: 'GW',
      version: '1_4',
      typeId: 11,
      upgradeMode: 'isp',
      enabled: false,
    });
    expect(form.get('typeId')).toBeNull();
    expect(form.get('upgradeMode')).toBeNull();
    expect(form.get('id')).toBeNull();
    expect(form.get('file')).toBeNull();
  });
});

describe('requests', () => {
  it('saves gateway software to add, then to its own route', async () => {
    const api = fakeHttp({
      'POST /api/v1/firmware/gateway/add': () => envelope(aFirmware({ id: 5, target: 'gateway' })),
      'POST /api/v1/firmware/gateway/{id}': () => envelope(aFirmware({ id: 5, target: 'gateway' })),
    });
    await saveFirmware('gateway', { name: 'GW', version: '1', enabled: false });
    await saveFirmware('gateway', { id: 5, name: 'GW', version: '1', enabled: false });
    expect(api.calls('POST /api/v1/firmware/gateway/add')).toHaveLength(1);
    expect(api.calls('POST /api/v1/firmware/gateway/{id}').map((r) => r.path)).toEqual([
      '/api/v1/firmware/gateway/5',
    ]);
  });

  it('rejects a taken version with 4002 (the form shows it, no toast)', async () => {
    const api = fakeHttp({
      'GET /api/v1/firmware/check': () => failure(4002, 'Duplicate version'),
    });
    const e: unknown = await checkFirmware('inverter', { version: 'V1', typeId: 11 }).catch(
      (x: unknown) => x,
    );
    expect(isApiError(e, 4002)).toBe(true);
    expect(api.calls('GET /api/v1/firmware/check')[0]?.query).toMatchObject({
      version: 'V1',
      typeId: 11,
    });
    expect(api.toasts).toEqual([]);
  });

  it('asks for a notice only when enabling', async () => {
    const api = fakeHttp({
      'GET /api/v1/firmware/{id}/changeEnable': () => envelope(aFirmware({ id: 7 })),
    });
    await changeEnabled(7, true, true);
    await changeEnabled(7, false, true);
    expect(api.calls('GET /api/v1/firmware/{id}/changeEnable').map((r) => r.query)).toMatchObject([
      { enable: true, notify: true },
      { enable: false, notify: false },
    ]);
  });

  it('deletes many at once and answers the refused ones', async () => {
    const api = fakeHttp({
      'POST /api/v1/firmware/batchDelete': () =>
        envelope({ deleted: 1, refused: [{ id: 2, code: 4, msg: 'inUse' }] }),
    });
    const r = await batchDeleteFirmware([1, 2]);
    expect(api.calls('POST /api/v1/firmware/batchDelete')[0]?.body).toEqual({ ids: [1, 2] });
    expect(r.refused[0]?.id).toBe(2);
  });

  it('tells a taken type name from a free one', async () => {
    let checks = 0;
    const api = fakeHttp({
      'GET /api/v1/firmware/inverterType/check': () =>
        checks++ === 0 ? envelope(null) : failure(4, 'Parameter validation error: name'),
    });
    expect(await typeNameTaken('Hybrid', null)).toBe(false);
    expect(await typeNameTaken('Hybrid', 1, 3)).toBe(true);
    expect(api.calls('GET /api/v1/firmware/inverterType/check')[1]?.query).toMatchObject({
      name: 'Hybrid',
      parentId: 1,
      id: 3,
    });
  });
});
