import type { FormRule } from 'antd';
import { describe, expect, it } from 'vitest';
import { envelope, failure, fakeHttp, type Reply } from '@/test/http';
import { adminAccountCheckRule, nameCheckRule } from './checks';

const t = (key: string) => `t:${key}`;
const run = (rule: FormRule, value: string) => {
  if (typeof rule === 'function' || !rule.validator) throw new Error('not a validator rule');
  return rule.validator({}, value, () => undefined);
};

describe('company form checks', () => {
  it('checks the name on blur, without the company being edited', async () => {
    const answers = [envelope(null), failure(203, 'Duplicate company name')];
    const api = fakeHttp({ 'GET /api/v1/company/check': () => answers.shift()! });
    await expect(run(nameCheckRule(t, 7), ' Acme ')).resolves.toBeUndefined();
    await expect(run(nameCheckRule(t), 'Acme')).rejects.toThrow('t:companies.refusal.nameTaken');
    expect(api.calls('GET /api/v1/company/check').map((c) => c.query)).toEqual([
      { name: 'Acme', id: 7, lan: 'en' },
      { name: 'Acme', lan: 'en' },
    ]);
  });

  it('does not ask about a name the form rules already refuse', async () => {
    const api = fakeHttp({ 'GET /api/v1/company/check': () => envelope(null) });
    await expect(run(nameCheckRule(t), 'x'.repeat(41))).resolves.toBeUndefined();
    await expect(run(nameCheckRule(t), '')).resolves.toBeUndefined();
    expect(api.calls('GET /api/v1/company/check')).toEqual([]);
  });

  it('wants a new administrator account free and an existing one registered', async () => {
    const taken = failure(104, 'Account exists');
    const answers: Reply[] = [taken, taken];
    fakeHttp({
      'GET /api/v1/company/user/check': () => answers.shift() ?? envelope(null),
    });
    let existing = false;
    const rule = adminAccountCheckRule(t, () => existing);
    await expect(run(rule, 'boss@acme.example')).rejects.toThrow(
      't:companies.refusal.accountExists',
    );
    existing = true;
    await expect(run(rule, 'boss@acme.example')).resolves.toBeUndefined();
    await expect(run(rule, 'nobody@acme.example')).rejects.toThrow(
      't:companies.refusal.notRegistered',
    );
    existing = false;
    await expect(run(rule, 'nobody@acme.example')).resolves.toBeUndefined();
  });
});
