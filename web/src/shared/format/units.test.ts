import { describe, expect, it } from 'vitest';
import { formatEnergy, formatPower, formatQuantity, scaleFor, toBase } from './units';

describe('formatQuantity', () => {
  it('never stacks prefixes: energy in kWh reads kWh or MWh', () => {
    expect(formatEnergy(32.4)).toBe('32.4 kWh');
    expect(formatEnergy(1339)).toBe('1.3 MWh');
    expect(formatEnergy(0.05)).toBe('50 Wh');
    expect(formatEnergy(0.5)).toBe('0.5 kWh');
    expect(formatQuantity(2, 'MWh')).toBe('2 MWh');
    expect(formatEnergy('83.2')).toBe('83.2 kWh');
  });
  it('scales power from W by the compact rule', () => {
    expect(formatPower(4200)).toBe('4.2 kW');
    expect(formatPower(36_800)).toBe('36.8 kW');
    expect(formatPower(1_250_000)).toBe('1.3 MW');
    expect(formatPower(12)).toBe('12 W');
    expect(formatQuantity(30, 'kW')).toBe('30 kW');
  });
  it('shows other units with separators and two decimals at most', () => {
    expect(formatQuantity(230.456, 'V')).toBe('230.46 V');
    expect(formatQuantity(12345, 'Hz')).toBe('12,345 Hz');
    expect(formatQuantity(55, '%')).toBe('55 %');
  });
  it("shows '--' for missing values", () => {
    for (const v of [null, undefined, '', 'x', Number.NaN, true]) {
      expect(formatPower(v)).toBe('--');
      expect(formatQuantity(v, 'V')).toBe('--');
    }
  });
});

describe('scales', () => {
  it('knows power and energy units and their factor', () => {
    expect(toBase('kWh')).toEqual({ base: 'Wh', factor: 1000 });
    expect(toBase('MW')).toEqual({ base: 'W', factor: 1e6 });
    expect(toBase('W')).toEqual({ base: 'W', factor: 1 });
    expect(toBase('V')).toBeNull();
    expect(toBase('%')).toBeNull();
  });
  it('picks W, kW or MW by the peak', () => {
    expect(scaleFor(950, 'W')).toEqual({ unit: 'W', divisor: 1 });
    expect(scaleFor(-50_000, 'W')).toEqual({ unit: 'kW', divisor: 1000 });
    expect(scaleFor(2_500_000, 'Wh')).toEqual({ unit: 'MWh', divisor: 1e6 });
  });
});
