import type { FormRule } from 'antd';
import { partNumberTaken } from './api';
import { partNumber } from './rules';

type Translate = (key: string) => string;

/** The part number check, on blur and on submit: 4 ("partNumber") when another product has it. */
export function partNumberCheckRule(t: Translate, id?: number): FormRule {
  return {
    validateTrigger: 'onBlur',
    validator: async (_rule, value: unknown) => {
      const text = typeof value === 'string' ? value.trim() : '';
      if (!text || partNumber(text)) return;
      if ((await partNumberTaken(text, id)) === true)
        throw new Error(t('products.refusal.partNumber'));
    },
  };
}
