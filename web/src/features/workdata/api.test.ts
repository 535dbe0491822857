import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { defaults } from '@/shared/list/params';
import {
  DYNAMIC_FILTERS,
  dynamicParams,
  EVENT_FILTERS,
  eventParams,
  predictedFileProblem,
} from './api';
import { splitColumns, withinDynamicRange } from './dynamic';
import { rowPeriod } from './predicted';

describe('event filters', () => {
  it('sends only what is chosen, and a range only with both days', () => {
    const f = defaults(EVENT_FILTERS, 20);
    expect(eventParams(f)).toEqual({ page: 1, limit: 20 });
    expect(
      eventParams({ ...f, plantId: 3, sn: ' INV ', severity: 'fault', sdate: '2026-11-01' }),
    ).toEqual({ page: 1, limit: 20, plantId: 3, sn: 'INV', severity: 'fault' });
    expect(eventParams({ ...f, sdate: '2026-11-01', edate: '2026-11-02' })).toMatchObject({
      sdate: '2026-11-01',
      edate: '2026-11-02',
    });
  });
});

describe('dynamic data', () => {
  it('reads today when no range is chosen and sends the chosen columns', () => {
    const f = { ...defaults(DYNAMIC_FILTERS, 20), sn: 'INV1' };
    expect(dynamicParams(f, '2026-11-25')).toEqual({
      sn: 'INV1',
      sdate: '2026-11-25',
      edate: '2026-11-25',
      page: 1,
      limit: 20,
    });
    expect(dynamicParams({ ...f, column: 'pv_power,soc' }, '2026-11-25').column).toBe(
      'pv_power,soc',
    );
  });

  it('keeps a range within the 31 days the server reads', () => {
    const from = dayjs('2026-10-01');
    expect(withinDynamicRange([from, from.add(30, 'day')])).toBe(true);
    expect(withinDynamicRange([from, from.add(31, 'day')])).toBe(false);
  });

  it('splits the column list, dropping blanks', () => {
    expect(splitColumns(' pv_power, ,soc ')).toEqual(['pv_power', 'soc']);
    expect(splitColumns('')).toEqual([]);
  });
});

describe('predicted generation', () => {
  it('takes .xlsx files of at most 2 MB, not the legacy .xls', () => {
    expect(predictedFileProblem({ name: 'p.xlsx', size: 10 })).toBeNull();
    expect(predictedFileProblem({ name: 'p.csv', size: 10 })).toBe('workdata.predicted.wrongType');
    expect(predictedFileProblem({ name: 'p.xls', size: 10 })).toBe('workdata.predicted.wrongType');
    expect(predictedFileProblem({ name: 'p.xlsx', size: 0 })).toBe('workdata.predicted.emptyFile');
    expect(predictedFileProblem({ name: 'p.XLSX', size: 3 * 1024 * 1024 })).toBe(
      'workdata.predicted.tooLarge',
    );
  });

  it('names the period of a row: a month, or a day', () => {
    expect(rowPeriod({ year: 2026, month: 5, day: null })).toBe('2026-05');
    expect(rowPeriod({ year: 2026, month: 5, day: 0 })).toBe('2026-05');
    expect(rowPeriod({ year: 2026, month: 5, day: 4 })).toBe('2026-05-04');
    expect(rowPeriod({ year: null, month: null, day: null })).toBe('--');
  });
});
