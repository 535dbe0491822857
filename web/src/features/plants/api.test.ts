import { describe, expect, it } from 'vitest';
import { readQuery } from '@/shared/list/params';
import { listParams, PLANT_FILTERS } from './api';

const read = (search: string) => readQuery(PLANT_FILTERS, new URLSearchParams(search), 10);

describe('plant list parameters', () => {
  it('send the customer of the URL as customerId', () => {
    const q = read('customerId=42');
    expect(q.customerId).toBe(42);
    expect(listParams(q)).toMatchObject({ customerId: 42, page: 1, limit: 10 });
    expect(listParams(q, false)).toMatchObject({ customerId: 42 });
  });

  it('leave customerId out when the URL has none or a bad one', () => {
    expect(read('').customerId).toBeNull();
    expect(read('customerId=ann').customerId).toBeNull();
    expect(listParams(read(''))).not.toHaveProperty('customerId');
    expect(listParams(read('customerId=-1'))).not.toHaveProperty('customerId');
  });
});
