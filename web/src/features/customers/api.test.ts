import { describe, expect, it } from 'vitest';
import { ApiError } from '@/shared/http';
import {
  accountRefusalKey,
  customerParams,
  deleteRefusalKey,
  refusalDetail,
  type CustomerQuery,
} from './api';

const query = (patch: Partial<CustomerQuery> = {}): CustomerQuery => ({
  name: '',
  typeId: null,
  page: 1,
  limit: 10,
  ...patch,
});

describe('customer api helpers', () => {
  it('sends only the filters in use', () => {
    expect(customerParams(query())).toEqual({ page: 1, limit: 10 });
    expect(customerParams(query({ name: '  ann ', typeId: 7, page: 3, limit: 500 }))).toEqual({
      page: 3,
      limit: 100,
      name: 'ann',
      typeId: 7,
    });
  });

  it('names the refusals of an account', () => {
    expect(accountRefusalKey(new ApiError(105, 'Account not registered'))).toBe(
      'customers.refusal.notRegistered',
    );
    expect(accountRefusalKey(new ApiError(207, 'Already a company customer'))).toBe(
      'customers.refusal.already',
    );
    expect(accountRefusalKey(new ApiError(4, 'Parameter validation error: account'))).toBe(
      'customers.refusal.notOwner',
    );
    expect(accountRefusalKey(new ApiError(4, 'Parameter validation error'))).toBe(
      'customers.refusal.notOwner',
    );
    expect(accountRefusalKey(new ApiError(4, 'Parameter validation error: typeId'))).toBeNull();
    expect(accountRefusalKey(new ApiError(2, 'No permission'))).toBeNull();
    expect(accountRefusalKey(new Error('offline'))).toBeNull();
  });

  it('reads what a parameter refusal names, in any language', () => {
    expect(refusalDetail(new ApiError(4, 'Parameter validation error: children'))).toBe('children');
    expect(refusalDetail(new ApiError(4, '参数校验错误: customers'))).toBe('customers');
    expect(refusalDetail(new ApiError(4, 'Parameter validation error'))).toBeNull();
    expect(refusalDetail(new ApiError(5000, 'Code exists: code'))).toBeNull();
  });

  it('tells why a type cannot be deleted', () => {
    expect(deleteRefusalKey(new ApiError(4, 'Parameter validation error: children'))).toBe(
      'customerTypes.refusal.children',
    );
    expect(deleteRefusalKey(new ApiError(4, 'Error de validación de parámetros: customers'))).toBe(
      'customerTypes.refusal.customers',
    );
    expect(deleteRefusalKey(new ApiError(4, 'Parameter validation error: id'))).toBeNull();
  });
});
