import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { presetRange, rangePresets, RANGE_PRESETS } from './dateRanges';

const now = dayjs('2025-01-20T15:30:00');
const fmt = ([a, b]: [dayjs.Dayjs, dayjs.Dayjs]) => [
  a.format('YYYY-MM-DD HH:mm'),
  b.format('YYYY-MM-DD HH:mm'),
];

describe('date-range presets', () => {
  it('covers today and yesterday as whole days', () => {
    expect(fmt(presetRange('today', now))).toEqual(['2025-01-20 00:00', '2025-01-20 23:59']);
    expect(fmt(presetRange('yesterday', now))).toEqual(['2025-01-19 00:00', '2025-01-19 23:59']);
  });
  it('counts today in the last N days', () => {
    expect(fmt(presetRange('last3', now))).toEqual(['2025-01-18 00:00', '2025-01-20 23:59']);
    expect(fmt(presetRange('last7', now))).toEqual(['2025-01-14 00:00', '2025-01-20 23:59']);
    expect(fmt(presetRange('last30', now))).toEqual(['2024-12-22 00:00', '2025-01-20 23:59']);
    expect(fmt(presetRange('last60', now))).toEqual(['2024-11-22 00:00', '2025-01-20 23:59']);
  });
  it('labels the six presets for the range picker', () => {
    const presets = rangePresets((k) => k.toUpperCase(), now);
    expect(presets.map((p) => p.label)).toEqual(
      RANGE_PRESETS.map((p) => `DATERANGE.${p.toUpperCase()}`),
    );
  });
});
