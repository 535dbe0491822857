import { describe, expect, it } from 'vitest';
import type { Field } from './api';
import { check, checkLevels } from './validate';

const num = (min: number, max: number, decimals: number): Field => ({
  key: 'x',
  group: 'battery',
  unit: 'A',
  default: '0',
  selectable: true,
  type: 'number',
  min,
  max,
  decimals,
});

describe('settings validation', () => {
  it('integers and decimals within the range', () => {
    const amps = num(0, 240, 0);
    expect(check(amps, '120')).toBeNull();
    expect(check(amps, '120.5')?.key).toBe('settings.invalid.integer');
    expect(check(amps, '241')?.key).toBe('settings.invalid.range');
    expect(check(amps, '')?.key).toBe('settings.invalid.integer');
    const volts = num(38, 61, 1);
    expect(check(volts, '53.6')).toBeNull();
    expect(check(volts, '53.65')).toEqual({
      key: 'settings.invalid.decimals',
      values: { n: 1 },
    });
    expect(check(num(-1, 1, 2), '-0.95')).toBeNull();
  });

  it('never beyond 9999999.00', () => {
    const big = num(0, 1e9, 2);
    expect(check(big, '9999999.00')).toBeNull();
    expect(check(big, '9999999.01')?.key).toBe('settings.invalid.range');
  });

  it('times, booleans and choices', () => {
    const time: Field = {
      key: 't',
      group: 'timeOfUse',
      unit: '',
      default: '00:00',
      selectable: false,
      type: 'time',
    };
    expect(check(time, '08:30')).toBeNull();
    expect(check(time, '24:00')?.key).toBe('settings.invalid.time');
    const flag: Field = {
      key: 'b',
      group: 'timeOfUse',
      unit: '',
      default: 'true',
      selectable: false,
      type: 'bool',
    };
    expect(check(flag, true)).toBeNull();
    expect(check(flag, '1')).toBeNull();
    expect(check(flag, 'yes')?.key).toBe('settings.invalid.bool');
    const mode: Field = {
      key: 'battMode',
      group: 'battery',
      unit: '',
      default: '1',
      selectable: true,
      type: 'choice',
      choices: ['-1', '0', '1'],
    };
    expect(check(mode, '0')).toBeNull();
    expect(check(mode, '2')?.key).toBe('settings.invalid.choice');
  });
});

describe('battery levels', () => {
  const form =
    (shutdown: string, low: string, restart: string) =>
    (key: string): string | undefined =>
      ({ batteryShutdownCap: shutdown, batteryLowCap: low, batteryRestartCap: restart })[key];

  it('pass in order, shutdown and low may be equal', () => {
    for (const key of ['batteryShutdownCap', 'batteryLowCap', 'batteryRestartCap']) {
      expect(checkLevels(key, form('10', '20', '40'))).toBeNull();
      expect(checkLevels(key, form('20', '20', '21'))).toBeNull();
    }
  });

  it('name the level each one must respect, as the server does', () => {
    const wrong = form('60', '25', '15');
    expect(checkLevels('batteryShutdownCap', wrong)).toEqual({
      key: 'settings.invalid.levelAtMost',
      values: { other: 'batteryLowCap', value: 25 },
    });
    expect(checkLevels('batteryLowCap', wrong)).toEqual({
      key: 'settings.invalid.levelAtLeast',
      values: { other: 'batteryShutdownCap', value: 60 },
    });
    expect(checkLevels('batteryRestartCap', wrong)?.key).toBe('settings.invalid.levelAbove');
    expect(checkLevels('batteryRestartCap', form('10', '30', '30'))?.values?.other).toBe(
      'batteryLowCap',
    );
  });

  it('leave a pair unchecked while one side is not a number, and other fields alone', () => {
    expect(checkLevels('batteryRestartCap', form('', 'x', '5'))).toBeNull();
    expect(checkLevels('floatVolt', form('60', '25', '15'))).toBeNull();
  });
});
