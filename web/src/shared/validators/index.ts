import type { FormRule } from 'antd';
import { i18n } from '../i18n';
import type { Check } from './rules';

export * from './rules';

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** Turns a rule of `rules.ts` into an antd form rule; empty values are left to `required`. */
export function formRule(check: (value: unknown) => Check): FormRule {
  return {
    validator: (_rule, value: unknown) => {
      if (isEmpty(value)) return Promise.resolve();
      const result = check(value);
      return result
        ? Promise.reject(new Error(i18n.t(result.key, result.values ?? {})))
        : Promise.resolve();
    },
  };
}

/** A `required` rule with the localized message. */
export function requiredRule(): FormRule {
  return { required: true, message: i18n.t('validation.required') };
}
