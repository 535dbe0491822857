import { describe, expect, it } from 'vitest';
import { defaults } from '@/shared/list/params';
import { envelope, failure, fakeHttp, type Reply } from '@/test/http';
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

/** Answers in turn, the last one for good. */
const inTurn = <A>(...answers: A[]) => {
  let n = 0;
  return () => answers[Math.min(n++, answers.length - 1)] as A;
};

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
  it('says an account is taken on 104 and free on success', async () => {
    fakeHttp({
      'GET /api/v1/company/user/check': ({ query }) =>
        query.account === 'taken@example.com' ? failure(104, 'Account exists') : envelope(null),
    });
    expect(await accountFree(' taken@example.com ')).toBe(false);
    expect(await accountFree('new@example.com')).toBe(true);
  });

  it('answers the role check refusal (800, 801) instead of toasting it', async () => {
    const api = fakeHttp({
      'GET /api/v1/company/role/check': inTurn<Reply | ReturnType<typeof envelope<null>>>(
        failure(801, 'Role exists'),
        failure(800, 'At most 5 roles'),
        envelope(null),
      ),
    });
    expect(await checkRoleName('Ops', undefined)).toBe(801);
    expect(await checkRoleName('New', undefined)).toBe(800);
    expect(await checkRoleName('Free', 4)).toBeNull();
    expect(api.calls('GET /api/v1/company/role/check').at(-1)?.query).toMatchObject({
      name: 'Free',
      companyId: 4,
    });
    expect(api.toasts).toEqual([]);
  });

  it('sends a role as name and permission keys', async () => {
    const api = fakeHttp({
      'POST /api/v1/company/role': () => envelope(31),
      'POST /api/v1/company/role/{id}': () => envelope(null),
    });
    expect(await createRole({ name: ' Ops ', permissions: ['station.view'] }, undefined)).toBe(31);
    expect(api.calls('POST /api/v1/company/role')[0]?.body).toEqual({
      name: 'Ops',
      permissions: ['station.view'],
    });
    await updateRole(31, { name: 'Ops2', permissions: ['equip.view'] });
    expect(api.calls('POST /api/v1/company/role/{id}')[0]?.params).toEqual({ id: '31' });
    expect(api.calls('POST /api/v1/company/role/{id}')[0]?.body).toEqual({
      name: 'Ops2',
      permissions: ['equip.view'],
    });
  });

  it('answers the agent refusals (105, 900-903, 202) with their message', async () => {
    fakeHttp({
      'GET /api/v1/agent/check': inTurn<Reply | ReturnType<typeof envelope<null>>>(
        failure(903, 'Already an agent'),
        envelope(null),
      ),
      'POST /api/v1/agent': () => failure(902, 'Only admins'),
    });
    expect(await checkAgent('x@example.com')).toEqual({ code: 903, message: 'Already an agent' });
    expect(await checkAgent('y@example.com')).toBeNull();
    await expect(addAgent('z@example.com')).rejects.toMatchObject({ code: 902 });
  });

  it('uploads a logo and answers its URL', async () => {
    fakeHttp({
      'POST /api/v1/company/uploadLogo': ({ body }) =>
        envelope({
          url: `/files/logo-${String((body as FormData).get('companyId') ?? 'own')}.png`,
        }),
    });
    const file = new File([new Uint8Array([1])], 'logo.png', { type: 'image/png' });
    expect(await uploadLogo(file, undefined)).toBe('/files/logo-own.png');
    expect(await uploadLogo(file, 9)).toBe('/files/logo-9.png');
  });
});
