import { describe, expect, it } from 'vitest';
import { ageOf } from './lastMessage';

describe('ageOf', () => {
  const now = Date.parse('2026-05-01T12:00:00Z');

  it('says how long ago in the largest whole unit', () => {
    expect(ageOf('2026-05-01T12:00:00Z', now)).toEqual({ unit: 'now', count: 0 });
    expect(ageOf('2026-05-01T11:59:48Z', now)).toEqual({ unit: 'seconds', count: 12 });
    expect(ageOf('2026-05-01T11:58:30Z', now)).toEqual({ unit: 'minutes', count: 1 });
    expect(ageOf('2026-05-01T09:00:00Z', now)).toEqual({ unit: 'hours', count: 3 });
    expect(ageOf('2026-04-28T12:00:00Z', now)).toEqual({ unit: 'days', count: 3 });
  });

  it('has nothing to say without a time, and a clock ahead is now', () => {
    expect(ageOf(null, now)).toBeNull();
    expect(ageOf('not a time', now)).toBeNull();
    expect(ageOf('2026-05-01T12:00:05Z', now)).toEqual({ unit: 'now', count: 0 });
  });
});
