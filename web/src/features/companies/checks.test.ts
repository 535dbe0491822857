import type { FormRule } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/shared/http';
import { adminAccountCheckRule, nameCheckRule } from './checks';

const get = vi.fn();
vi.mock('@/shared/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/shared/http')>()),
  http: { get: (...args: unknown[]) => get(...args) as unknown },
}));

const t = (key: string) => `t:${key}`;
const run = (rule: FormRule, value: string) => {
  if (typeof rule === 'function' || !rule.validator) throw new Error('not a validator rule');
  return rule.validator({}, value, () => undefined);
};

describe('company form checks', () => {
  beforeEach(() => get.mockReset());

  it('checks the name on blur, without the company being edited', async () => {
    get.mockResolvedValueOnce(null);
    await expect(run(nameCheckRule(t, 7), ' Acme ')).resolves.toBeUndefined();
    expect(get).toHaveBeenCalledWith('/api/v1/company/check', {
      params: { name: 'Acme', id: 7 },
      handledCodes: [203],
    });
    get.mockRejectedValueOnce(new ApiError(203, 'Duplicate company name'));
    await expect(run(nameCheckRule(t), 'Acme')).rejects.toThrow('t:companies.refusal.nameTaken');
    expect(get).toHaveBeenLastCalledWith('/api/v1/company/check', {
      params: { name: 'Acme' },
      handledCodes: [203],
    });
  });

  it('does not ask about a name the form rules already refuse', async () => {
    await expect(run(nameCheckRule(t), 'x'.repeat(41))).resolves.toBeUndefined();
    await expect(run(nameCheckRule(t), '')).resolves.toBeUndefined();
    expect(get).not.toHaveBeenCalled();
  });

  it('wants a new administrator account free and an existing one registered', async () => {
    let existing = false;
    const rule = adminAccountCheckRule(t, () => existing);
    get.mockRejectedValueOnce(new ApiError(104, 'Account exists'));
    await expect(run(rule, 'boss@acme.example')).rejects.toThrow(
      't:companies.refusal.accountExists',
    );
    existing = true;
    get.mockRejectedValueOnce(new ApiError(104, 'Account exists'));
    await expect(run(rule, 'boss@acme.example')).resolves.toBeUndefined();
    get.mockResolvedValueOnce(null);
    await expect(run(rule, 'nobody@acme.example')).rejects.toThrow(
      't:companies.refusal.notRegistered',
    );
    existing = false;
    get.mockResolvedValueOnce(null);
    await expect(run(rule, 'nobody@acme.example')).resolves.toBeUndefined();
  });
});
