import { useQueryClient } from '@tanstack/react-query';
import type { FormRule } from 'antd';
import { gatewayKeys, plantKeys } from '@/shared/api/keys';
import type { Scope } from '@/shared/company';
import { ErrorCode, isApiError } from '@/shared/http';
import { account as accountRule } from '@/shared/validators';
import { accountRefusalKey, checkCustomer, customerKeys, refusalDetail } from './api';
import type { TypeRow } from './tree';

/**
 * The account check of the add form, run when the field loses focus and again on submit:
 * not registered (105), not an owner account (4), already a customer (207). Other failures
 * (no answer) are left to the submit. `scope`: the company the account would join.
 */
export function accountCheckRule(translate: (key: string) => string, scope: Scope): FormRule {
  return {
    validateTrigger: 'onBlur',
    validator: async (_rule, value: unknown) => {
      const text = typeof value === 'string' ? value.trim() : '';
      if (!text || accountRule(text)) return;
      try {
        await checkCustomer(text, scope);
      } catch (e) {
        const key = accountRefusalKey(e);
        if (key) throw new Error(translate(key), { cause: e });
      }
    },
  };
}

/** The things a customer change shows elsewhere: plant, gateway and device visibility. */
export function useInvalidateCustomers() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: customerKeys.all }),
      queryClient.invalidateQueries({ queryKey: plantKeys.all }),
      queryClient.invalidateQueries({ queryKey: gatewayKeys.all }),
    ]);
}

/**
 * Where a refused save points: 5000 (code taken) at the code, 4 naming a field at that field;
 * null when it points nowhere (the message is toasted then).
 */
export function saveRefusal(
  error: unknown,
): { field: 'code' | 'name' | 'remark' | 'parentId'; key: string } | null {
  if (isApiError(error, ErrorCode.DictCodeExists))
    return { field: 'code', key: 'customerTypes.refusal.codeTaken' };
  const detail = refusalDetail(error);
  if (detail === 'parentId') return { field: 'parentId', key: 'customerTypes.refusal.parent' };
  if (detail === 'code') return { field: 'code', key: 'customerTypes.rule.code' };
  if (detail === 'name') return { field: 'name', key: 'customerTypes.refusal.name' };
  if (detail === 'remark') return { field: 'remark', key: 'customerTypes.refusal.remark' };
  return null;
}

/** Why a type cannot go: it has subtypes, or customers; null when it may. */
export function blockedDeletion(row: TypeRow): string | null {
  if (row.children?.length) return 'customerTypes.refusal.children';
  if (row.customers > 0) return 'customerTypes.refusal.customers';
  return null;
}
