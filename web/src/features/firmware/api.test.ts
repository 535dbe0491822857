import MockAdapter from 'axios-mock-adapter';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { http, isApiError } from '@/shared/http';
import { defaults } from '@/shared/list/params';
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

const ok = <T>(data: T): [number, unknown] => [200, { code: 0, msg: 'Success', data }];
const failure = (code: number, msg: string): [number, unknown] => [200, { code, msg, data: null }];

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
  let mock: MockAdapter;
  beforeEach(() => {
    mock = new MockAdapter(http.axios);
  });
  afterEach(() => mock.restore());

  it('saves gateway software to add, then to its own route', async () => {
    mock.onPost('/api/v1/firmware/gateway/add').reply(...ok({ id: 5 }));
    mock.onPost('/api/v1/firmware/gateway/5').reply(...ok({ id: 5 }));
    await saveFirmware('gateway', { name: 'GW', version: '1', enabled: false });
    await saveFirmware('gateway', { id: 5, name: 'GW', version: '1', enabled: false });
    expect(mock.history.post.map((r) => r.url)).toEqual([
      '/api/v1/firmware/gateway/add',
      '/api/v1/firmware/gateway/5',
    ]);
  });

  it('rejects a taken version with 4002 (the form shows it, no toast)', async () => {
    mock.onGet('/api/v1/firmware/check').reply(...failure(4002, 'Duplicate version'));
    const e = await checkFirmware('inverter', { version: 'V1', typeId: 11 }).catch((x) => x);
    expect(isApiError(e, 4002)).toBe(true);
    expect(mock.history.get[0]?.params).toMatchObject({ version: 'V1', typeId: 11 });
  });

  it('asks for a notice only when enabling', async () => {
    mock.onGet('/api/v1/firmware/7/changeEnable').reply(...ok({ id: 7 }));
    await changeEnabled(7, true, true);
    await changeEnabled(7, false, true);
    expect(mock.history.get.map((r) => r.params)).toMatchObject([
      { enable: true, notify: true },
      { enable: false, notify: false },
    ]);
  });

  it('deletes many at once and answers the refused ones', async () => {
    mock
      .onPost('/api/v1/firmware/batchDelete')
      .reply(...ok({ deleted: 1, refused: [{ id: 2, code: 4, msg: 'inUse' }] }));
    const r = await batchDeleteFirmware([1, 2]);
    expect(JSON.parse(mock.history.post[0]?.data as string)).toEqual({ ids: [1, 2] });
    expect(r.refused[0]?.id).toBe(2);
  });

  it('tells a taken type name from a free one', async () => {
    mock
      .onGet('/api/v1/firmware/inverterType/check')
      .replyOnce(...ok(null))
      .onGet('/api/v1/firmware/inverterType/check')
      .replyOnce(...failure(4, 'Parameter validation error: name'));
    expect(await typeNameTaken('Hybrid', null)).toBe(false);
    expect(await typeNameTaken('Hybrid', 1, 3)).toBe(true);
    expect(mock.history.get[1]?.params).toMatchObject({ name: 'Hybrid', parentId: 1, id: 3 });
  });
});
