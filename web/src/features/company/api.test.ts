import MockAdapter from 'axios-mock-adapter';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { http } from '@/shared/http';
import { defaults } from '@/shared/list/params';
import {
  accountFree,
  addAgent,
  agentParams,
  AGENT_FILTERS,
  checkAgent,
  checkRoleName,
  companyEditBody,
  createRole,
  newStaffForm,
  STAFF_FILTERS,
  staffParams,
  updateRole,
  uploadLogo,
} from './api';

const ok = <T>(data: T): [number, unknown] => [200, { code: 0, msg: 'Success', data }];
const failure = (code: number, msg: string): [number, unknown] => [200, { code, msg, data: null }];

describe('request parameters', () => {
  it('sends the staff search only when there is one, and the company only when chosen', () => {
    const first = defaults(STAFF_FILTERS, 10);
    expect(staffParams(first, undefined)).toEqual({ page: 1, limit: 10 });
    expect(staffParams({ ...first, name: '  ann ', page: 2 }, 7)).toEqual({
      page: 2,
      limit: 10,
      name: 'ann',
      companyId: 7,
    });
  });

  it('sends the agent search only when there is one', () => {
    const first = defaults(AGENT_FILTERS, 10);
    expect(agentParams(first)).toEqual({ page: 1, limit: 10 });
    expect(agentParams({ ...first, name: ' Sol ' })).toEqual({ page: 1, limit: 10, name: 'Sol' });
  });

  it('trims every company field and sends missing ones empty', () => {
    expect(companyEditBody({ name: ' Sunrise ', email: undefined, remark: ' a\nb ' })).toEqual({
      name: 'Sunrise',
      contactName: '',
      email: '',
      phone: '',
      address: '',
      remark: 'a\nb',
    });
  });

  it('builds the new staff member multipart form, the avatar and company only when given', () => {
    const avatar = new File([new Uint8Array([1, 2])], 'me.png', { type: 'image/png' });
    const base = {
      account: ' sam@example.com ',
      password: 'Secret123',
      nickname: ' Sam ',
      name: '',
      email: '',
      mobile: '',
      roleId: 12,
    };
    const plain = newStaffForm(base, undefined);
    expect(Object.fromEntries(plain.entries())).toEqual({
      account: 'sam@example.com',
      password: 'Secret123',
      nickname: 'Sam',
      name: '',
      email: '',
      mobile: '',
      roleId: '12',
    });
    const full = newStaffForm({ ...base, avatar }, 3);
    expect(full.get('companyId')).toBe('3');
    expect(full.get('avatar')).toBeInstanceOf(File);
  });
});

describe('checks and writes against the server', () => {
  let mock: MockAdapter;
  beforeEach(() => {
    mock = new MockAdapter(http.axios);
  });
  afterEach(() => mock.restore());

  it('says an account is taken on 104 and free on success', async () => {
    mock
      .onGet('/api/v1/company/user/check')
      .reply((c) =>
        (c.params as { account: string }).account === 'taken@example.com'
          ? failure(104, 'Account exists')
          : ok(null),
      );
    expect(await accountFree(' taken@example.com ')).toBe(false);
    expect(await accountFree('new@example.com')).toBe(true);
  });

  it('answers the role check refusal (800, 801) instead of toasting it', async () => {
    mock.onGet('/api/v1/company/role/check').replyOnce(...failure(801, 'Role exists'));
    expect(await checkRoleName('Ops', undefined)).toBe(801);
    mock.onGet('/api/v1/company/role/check').replyOnce(...failure(800, 'At most 5 roles'));
    expect(await checkRoleName('New', undefined)).toBe(800);
    mock.onGet('/api/v1/company/role/check').replyOnce(...ok(null));
    expect(await checkRoleName('Free', 4)).toBeNull();
    expect(mock.history.get?.at(-1)?.params).toMatchObject({ name: 'Free', companyId: 4 });
  });

  it('sends a role as name and permission keys', async () => {
    mock.onPost('/api/v1/company/role').reply(...ok(31));
    mock.onPost('/api/v1/company/role/31').reply(...ok(null));
    expect(await createRole({ name: ' Ops ', permissions: ['station.view'] }, undefined)).toBe(31);
    expect(JSON.parse(String(mock.history.post?.[0]?.data))).toEqual({
      name: 'Ops',
      permissions: ['station.view'],
    });
    await updateRole(31, { name: 'Ops2', permissions: ['equip.view'] });
    expect(JSON.parse(String(mock.history.post?.[1]?.data))).toEqual({
      name: 'Ops2',
      permissions: ['equip.view'],
    });
  });

  it('answers the agent refusals (105, 900-903, 202) with their message', async () => {
    mock.onGet('/api/v1/agent/check').replyOnce(...failure(903, 'Already an agent'));
    expect(await checkAgent('x@example.com')).toEqual({ code: 903, message: 'Already an agent' });
    mock.onGet('/api/v1/agent/check').replyOnce(...ok(null));
    expect(await checkAgent('y@example.com')).toBeNull();
    mock.onPost('/api/v1/agent').replyOnce(...failure(902, 'Only admins'));
    await expect(addAgent('z@example.com')).rejects.toMatchObject({ code: 902 });
  });

  it('uploads a logo and answers its URL', async () => {
    mock.onPost('/api/v1/company/uploadLogo').reply((c) => {
      const form = c.data as FormData;
      return ok({ url: `/files/logo-${form.get('companyId') ?? 'own'}.png` });
    });
    const file = new File([new Uint8Array([1])], 'logo.png', { type: 'image/png' });
    expect(await uploadLogo(file, undefined)).toBe('/files/logo-own.png');
    expect(await uploadLogo(file, 9)).toBe('/files/logo-9.png');
  });
});
