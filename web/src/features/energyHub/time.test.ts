import { describe, expect, it } from 'vitest';
import { formatMinutes, shortTime, zonedTime } from './time';

describe('event times', () => {
  it('splits minutes into hours and minutes', () => {
    expect(formatMinutes(120)).toEqual({ h: 2, m: 0 });
    expect(formatMinutes(95)).toEqual({ h: 1, m: 35 });
    expect(formatMinutes(-3)).toEqual({ h: 0, m: 0 });
  });

  it('shows a missing or unreadable time as the dash, without a zone', () => {
    expect(shortTime(null)).toBe(shortTime('nonsense'));
    expect(zonedTime('')).toBe(shortTime(''));
  });

  it('names the reader zone after a time', () => {
    expect(zonedTime('2026-11-26T17:00:00Z')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d \(.+\)$/);
  });
});
