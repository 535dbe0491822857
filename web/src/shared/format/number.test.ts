import { describe, expect, it } from 'vitest';
import { compactNumber, formatCompact, formatNumber } from './number';

describe('formatNumber', () => {
  it('adds thousands separators and keeps decimals', () => {
    expect(formatNumber(1234567.891)).toBe('1,234,567.891');
    expect(formatNumber(-9876543)).toBe('-9,876,543');
    expect(formatNumber('12345')).toBe('12,345');
    expect(formatNumber(999)).toBe('999');
  });
  it('fixes decimals when asked', () => {
    expect(formatNumber(1234.5, 2)).toBe('1,234.50');
    expect(formatNumber(0.005, 0)).toBe('0');
    expect(formatNumber(1999.999, 1)).toBe('2,000.0');
  });
  it("shows '--' for missing values", () => {
    for (const v of [null, undefined, '', 'abc', Number.NaN, Infinity])
      expect(formatNumber(v)).toBe('--');
  });
});

describe('compactNumber', () => {
  it('keeps values with fewer than 3 digits', () => {
    expect(compactNumber(12.34)).toEqual({ value: '12.3', unit: '' });
    expect(compactNumber(0)).toEqual({ value: '0', unit: '' });
  });
  it('shows 3 to 5 digits in thousands with one decimal', () => {
    expect(compactNumber(123)).toEqual({ value: '0.1', unit: 'k' });
    expect(compactNumber(1234)).toEqual({ value: '1.2', unit: 'k' });
    expect(compactNumber(99999)).toEqual({ value: '100', unit: 'k' });
    expect(compactNumber(-45678)).toEqual({ value: '-45.7', unit: 'k' });
  });
  it('shows 6 or more digits in millions with one decimal', () => {
    expect(compactNumber(123456)).toEqual({ value: '0.1', unit: 'M' });
    expect(compactNumber(12_345_678)).toEqual({ value: '12.3', unit: 'M' });
  });
  it('joins the unit and a base unit', () => {
    expect(formatCompact(2500, 'Wh')).toBe('2.5 kWh');
    expect(formatCompact(12)).toBe('12');
    expect(formatCompact(null, 'W')).toBe('--');
  });
});
