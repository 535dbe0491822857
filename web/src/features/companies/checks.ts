import type { FormRule } from 'antd';
import { ErrorCode, isApiError } from '@/shared/http';
import { account as accountRule } from '@/shared/validators';
import { accountTaken, checkCompanyName } from './api';
import { companyName } from './rules';

type Translate = (key: string) => string;

/** The name check, on blur and on submit: 203 when another company has the name. */
export function nameCheckRule(t: Translate, id?: number): FormRule {
  return {
    validateTrigger: 'onBlur',
    validator: async (_rule, value: unknown) => {
      const name = typeof value === 'string' ? value.trim() : '';
      if (!name || companyName(name)) return;
      try {
        await checkCompanyName(name, id);
      } catch (e) {
        if (isApiError(e, ErrorCode.CompanyNameTaken))
          throw new Error(t('companies.refusal.nameTaken'), { cause: e });
      }
    },
  };
}

/**
 * The administrator account check, on blur and on submit (GET /company/user/check: 104 when
 * the account exists): a new account must not exist, an existing one must. Whether an existing
 * account may join (106) the server says on submit.
 */
export function adminAccountCheckRule(t: Translate, existing: () => boolean): FormRule {
  return {
    validateTrigger: 'onBlur',
    validator: async (_rule, value: unknown) => {
      const account = typeof value === 'string' ? value.trim() : '';
      if (!account || accountRule(account)) return;
      const taken = await accountTaken(account);
      if (taken === null) return;
      if (existing() && !taken) throw new Error(t('companies.refusal.notRegistered'));
      if (!existing() && taken) throw new Error(t('companies.refusal.accountExists'));
    },
  };
}
