import { describe, expect, it } from 'vitest';
import { ApiError } from '@/shared/http';
import { envelope, failure, fakeHttp, networkError } from '@/test/http';
import {
  accountTaken,
  companyParams,
  companyRefusal,
  newCompanyBody,
  type NewCompany,
} from './api';

const form: NewCompany = {
  name: ' Acme Solar ',
  contactName: ' Ann ',
  email: ' ann@acme.example ',
  phone: '',
  address: '',
  remark: '',
  adminAccount: ' boss@acme.example ',
  adminPassword: 'Sunny-roof9',
  adminNickname: ' Boss ',
};

describe('company api helpers', () => {
  it('sends the search only when there is one', () => {
    expect(companyParams({ name: ' ', page: 0, limit: 10 })).toEqual({ page: 1, limit: 10 });
    expect(companyParams({ name: ' acme', page: 2, limit: 20 })).toEqual({
      page: 2,
      limit: 20,
      name: 'acme',
    });
  });

  it('sends a new administrator with password and nickname, an existing one without', () => {
    expect(newCompanyBody(form, false)).toEqual({
      name: 'Acme Solar',
      contactName: 'Ann',
      email: 'ann@acme.example',
      phone: '',
      address: '',
      remark: '',
      adminAccount: 'boss@acme.example',
      adminPassword: 'Sunny-roof9',
      adminNickname: 'Boss',
    });
    const existing = newCompanyBody(form, true);
    expect(existing.adminPassword).toBe('');
    expect(existing.adminNickname).toBe('');
    expect(existing.adminAccount).toBe('boss@acme.example');
  });

  it('points refusals at their field', () => {
    expect(companyRefusal(new ApiError(203, 'Duplicate company name'), false)).toEqual({
      field: 'name',
      key: 'companies.refusal.nameTaken',
    });
    expect(companyRefusal(new ApiError(106, 'other company'), true)).toEqual({
      field: 'adminAccount',
      key: 'companies.refusal.otherCompany',
    });
    // an "existing" account the server does not know asks for a password
    expect(
      companyRefusal(new ApiError(4, 'Parameter validation error: adminPassword'), true),
    ).toEqual({ field: 'adminAccount', key: 'companies.refusal.notRegistered' });
    expect(companyRefusal(new ApiError(4, 'Parameter validation error: email'), false)).toEqual({
      field: 'email',
      key: 'companies.refusal.invalid',
    });
    expect(companyRefusal(new ApiError(4, 'Parameter validation error: other'), false)).toBeNull();
    expect(companyRefusal(new ApiError(2, 'No permission'), false)).toBeNull();
  });

  it('tells whether an account exists from /company/user/check', async () => {
    const answers = [envelope(null), failure(104, 'Account exists'), networkError()];
    const api = fakeHttp({ 'GET /api/v1/company/user/check': () => answers.shift()! });
    await expect(accountTaken(' ann@acme.example ')).resolves.toBe(false);
    expect(api.calls('GET /api/v1/company/user/check')[0]?.query).toMatchObject({
      account: 'ann@acme.example',
    });
    await expect(accountTaken('ann@acme.example')).resolves.toBe(true);
    await expect(accountTaken('ann@acme.example')).resolves.toBeNull();
  });
});
