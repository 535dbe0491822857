import { describe, expect, it } from 'vitest';
import { defaults } from '@/shared/list/params';
import { EVENT_FILTERS, EVENT_PAGE_SIZE, eventParams } from './api';

const FIRST = defaults(EVENT_FILTERS, EVENT_PAGE_SIZE);

describe('eventParams', () => {
  it('sends only the paging when nothing is chosen', () => {
    expect(eventParams(FIRST)).toEqual({ page: 1, limit: 20 });
  });

  it('sends every chosen filter, the day range only when it has both ends', () => {
    const chosen = {
      ...FIRST,
      plantId: 7,
      sn: ' INV1 ',
      deviceType: 'battery',
      severity: 'fault',
      status: 'open',
      sdate: '2026-03-01',
      edate: '2026-03-07',
    } as const;
    expect(eventParams(chosen)).toEqual({
      page: 1,
      limit: 20,
      plantId: 7,
      sn: 'INV1',
      deviceType: 'battery',
      severity: 'fault',
      status: 'open',
      sdate: '2026-03-01',
      edate: '2026-03-07',
    });
    expect(eventParams({ ...chosen, edate: '' })).not.toHaveProperty('sdate');
  });
});
