import { describe, expect, it } from 'vitest';
import { ApiError } from '@/shared/http';
import { envelope, failure, fakeHttp, networkError, type Reply } from '@/test/http';
import { accountCheckRule, blockedDeletion, saveRefusal } from './checks';
import type { TypeRow } from './tree';

const validate = (value: string, scope?: number) => {
  const rule = accountCheckRule((key) => `t:${key}`, scope);
  if (typeof rule === 'function' || !rule.validator) throw new Error('not a validator rule');
  return rule.validator({}, value, () => undefined);
};

const row = (patch: Partial<TypeRow> = {}): TypeRow => ({
  id: 1,
  code: 'HOME',
  name: 'Home',
  remark: '',
  parentId: null,
  customers: 0,
  createAt: '',
  ...patch,
});

/** The check endpoint answering `answers` in turn, then "free". */
const serve = (...answers: Reply[]) =>
  fakeHttp({ 'GET /api/v1/customer/check': () => answers.shift() ?? envelope(null) });

describe('the customer account check', () => {
  it('asks the server on blur and passes a free owner account', async () => {
    const api = serve();
    expect(validate(' ann@example.com ')).toBeInstanceOf(Promise);
    await expect(validate(' ann@example.com ')).resolves.toBeUndefined();
    expect(api.calls('GET /api/v1/customer/check')[1]?.query).toEqual({
      account: 'ann@example.com',
      lan: 'en',
    });
  });

  it('names the company an internal administrator is looking at', async () => {
    const api = serve();
    await expect(validate('ann@example.com', 1)).resolves.toBeUndefined();
    expect(api.calls('GET /api/v1/customer/check')[0]?.query).toEqual({
      account: 'ann@example.com',
      companyId: 1,
      lan: 'en',
    });
  });

  it('shows 105 and 207 at the field', async () => {
    serve(failure(105, 'not registered'), failure(207, 'already'));
    await expect(validate('ann@example.com')).rejects.toThrow('t:customers.refusal.notRegistered');
    await expect(validate('ann@example.com')).rejects.toThrow('t:customers.refusal.already');
  });

  it('does not ask for an empty or malformed account, nor block on no answer', async () => {
    const api = serve(networkError());
    await expect(validate('')).resolves.toBeUndefined();
    await expect(validate('not an account')).resolves.toBeUndefined();
    expect(api.calls('GET /api/v1/customer/check')).toEqual([]);
    await expect(validate('ann@example.com')).resolves.toBeUndefined();
  });
});

describe('customer type refusals', () => {
  it('puts a taken code at the code and a bad parent at the parent', () => {
    expect(saveRefusal(new ApiError(5000, 'Code exists'))).toEqual({
      field: 'code',
      key: 'customerTypes.refusal.codeTaken',
    });
    expect(saveRefusal(new ApiError(4, 'Parameter validation error: parentId'))).toEqual({
      field: 'parentId',
      key: 'customerTypes.refusal.parent',
    });
    expect(saveRefusal(new ApiError(2, 'No permission'))).toBeNull();
  });

  it('keeps a type with subtypes or customers', () => {
    expect(blockedDeletion(row())).toBeNull();
    expect(blockedDeletion(row({ children: [row({ id: 2 })] }))).toBe(
      'customerTypes.refusal.children',
    );
    expect(blockedDeletion(row({ customers: 3 }))).toBe('customerTypes.refusal.customers');
  });
});
