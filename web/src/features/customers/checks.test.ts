import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/shared/http';
import { accountCheckRule, blockedDeletion, saveRefusal } from './checks';
import type { TypeRow } from './tree';

const get = vi.fn();
vi.mock('@/shared/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/shared/http')>()),
  http: { get: (...args: unknown[]) => get(...args) as unknown },
}));

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

describe('the customer account check', () => {
  beforeEach(() => get.mockReset());

  it('asks the server on blur and passes a free owner account', async () => {
    get.mockResolvedValue(null);
    expect(validate(' ann@example.com ')).toBeInstanceOf(Promise);
    await expect(validate(' ann@example.com ')).resolves.toBeUndefined();
    expect(get).toHaveBeenCalledWith('/api/v1/customer/check', {
      params: { account: 'ann@example.com' },
      handledCodes: [105, 4, 207],
    });
  });

  it('names the company an internal administrator is looking at', async () => {
    get.mockResolvedValue(null);
    await expect(validate('ann@example.com', 1)).resolves.toBeUndefined();
    expect(get).toHaveBeenCalledWith('/api/v1/customer/check', {
      params: { account: 'ann@example.com', companyId: 1 },
      handledCodes: [105, 4, 207],
    });
  });

  it('shows 105 and 207 at the field', async () => {
    get.mockRejectedValueOnce(new ApiError(105, 'not registered'));
    await expect(validate('ann@example.com')).rejects.toThrow('t:customers.refusal.notRegistered');
    get.mockRejectedValueOnce(new ApiError(207, 'already'));
    await expect(validate('ann@example.com')).rejects.toThrow('t:customers.refusal.already');
  });

  it('does not ask for an empty or malformed account, nor block on no answer', async () => {
    await expect(validate('')).resolves.toBeUndefined();
    await expect(validate('not an account')).resolves.toBeUndefined();
    expect(get).not.toHaveBeenCalled();
    get.mockRejectedValueOnce(new Error('Network exception'));
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
