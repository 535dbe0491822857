import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTER, eventParams } from './api';

describe('eventParams', () => {
  it('sends only the paging when nothing is chosen', () => {
    expect(eventParams(DEFAULT_FILTER)).toEqual({ page: 1, limit: 20 });
  });

  it('sends every chosen filter with the range as whole days', () => {
    const range: [dayjs.Dayjs, dayjs.Dayjs] = [
      dayjs('2026-03-01T00:00:00'),
      dayjs('2026-03-07T23:59:59'),
    ];
    expect(
      eventParams({
        ...DEFAULT_FILTER,
        plantId: 7,
        sn: ' INV1 ',
        deviceType: 'battery',
        severity: 'fault',
        status: 'open',
        range,
      }),
    ).toEqual({
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
  });
});
