import { describe, expect, it } from 'vitest';
import {
  day,
  defaults,
  int,
  isFiltered,
  oneOf,
  optionalId,
  readQuery,
  text,
  writeQuery,
} from './params';

const FILTERS = {
  status: int(-1),
  sn: text(),
  plantId: optionalId(),
  order: oneOf(['asc', 'desc'] as const, 'desc'),
  sdate: day(),
};

describe('list params', () => {
  it('reads what it wrote, and writes nothing for a list as it first opens', () => {
    const first = defaults(FILTERS, 10);
    expect(writeQuery(FILTERS, first, 10, new URLSearchParams()).toString()).toBe('');
    const chosen = {
      ...first,
      status: 0,
      sn: 'INV 1',
      plantId: 7,
      order: 'asc' as const,
      sdate: '2026-03-01',
      page: 3,
      limit: 50,
    };
    const url = writeQuery(FILTERS, chosen, 10, new URLSearchParams('tab=map'));
    expect(url.get('tab')).toBe('map');
    expect(readQuery(FILTERS, url, 10)).toEqual(chosen);
    expect(isFiltered(FILTERS, chosen)).toBe(true);
    expect(isFiltered(FILTERS, { ...first, page: 4 })).toBe(false);
  });

  it('takes the fallback of a value that is not valid', () => {
    const url = new URLSearchParams(
      'status=two&plantId=x&order=up&sdate=March&page=0&limit=1000&sn=a',
    );
    expect(readQuery(FILTERS, url, 20)).toEqual({ ...defaults(FILTERS, 20), sn: 'a' });
  });
});
