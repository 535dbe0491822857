import { describe, expect, it } from 'vitest';
import { formatPlantTime, plantWallTime, todayIn, validZone, wallTimeOf } from './time';

describe('formatPlantTime', () => {
  it('shows an instant in the plant zone, named', () => {
    expect(formatPlantTime('2025-06-01T12:05:09Z', 'Europe/Madrid')).toBe(
      '2025-06-01 14:05:09 (Europe/Madrid)',
    );
    expect(formatPlantTime('2025-01-01T12:05:09Z', 'Europe/Madrid')).toBe(
      '2025-01-01 13:05:09 (Europe/Madrid)',
    );
    expect(formatPlantTime(Date.UTC(2025, 5, 1, 23, 30), 'Australia/Sydney')).toBe(
      '2025-06-02 09:30:00 (Australia/Sydney)',
    );
  });
  it('keeps a plant-local wall time as it is and names its zone', () => {
    expect(formatPlantTime('2025-06-01 14:05:09', 'Asia/Shanghai')).toBe(
      '2025-06-01 14:05:09 (Asia/Shanghai)',
    );
    expect(plantWallTime('2025-06-01 14:05', 'UTC')).toBe('2025-06-01 14:05');
  });
  it('can leave out seconds or the zone', () => {
    expect(formatPlantTime('2025-06-01T12:05:09Z', 'UTC', { seconds: false })).toBe(
      '2025-06-01 12:05 (UTC)',
    );
    expect(formatPlantTime('2025-06-01T12:05:09Z', 'UTC', { zone: false })).toBe(
      '2025-06-01 12:05:09',
    );
  });
  it('falls back to UTC without a known zone, and to -- without a time', () => {
    expect(formatPlantTime('2025-06-01T12:05:09Z', null)).toBe('2025-06-01 12:05:09 (UTC)');
    expect(formatPlantTime('2025-06-01T12:05:09Z', 'Mars/Olympus')).toBe(
      '2025-06-01 12:05:09 (UTC)',
    );
    expect(validZone('Europe/London')).toBe('Europe/London');
    for (const v of [null, undefined, '', 'yesterday'])
      expect(formatPlantTime(v, 'UTC')).toBe('--');
  });
  it('reads midnight as 00, not 24', () => {
    expect(wallTimeOf(Date.UTC(2025, 0, 1, 0, 0, 0), 'UTC')).toBe('2025-01-01 00:00:00');
  });
});

describe('todayIn', () => {
  it('takes today in the plant zone, not the browser', () => {
    const now = new Date('2026-06-01T23:30:00Z');
    expect(todayIn('Australia/Sydney', now).format('YYYY-MM-DD')).toBe('2026-06-02');
    expect(todayIn('America/New_York', now).format('YYYY-MM-DD')).toBe('2026-06-01');
    // The one rule's fallback: no zone or an unknown one is UTC.
    expect(todayIn(undefined, now).format('YYYY-MM-DD')).toBe('2026-06-01');
    expect(
      todayIn('Mars/Olympus', new Date('2026-06-01T23:30:00+02:00')).format('YYYY-MM-DD'),
    ).toBe('2026-06-01');
  });
});
