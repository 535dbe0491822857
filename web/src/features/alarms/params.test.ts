import { describe, expect, it } from 'vitest';
import { invalidParam, parseCodes } from './params';

describe('alarm rule parameters', () => {
  it('refuses what the server refuses, naming the field as it does', () => {
    expect(invalidParam('device_silent', { warningCycles: 3, alarmCycles: 6 })).toBeNull();
    expect(invalidParam('device_silent', { warningCycles: 5, alarmCycles: 5 })).toBe(
      'params.alarmCycles',
    );
    expect(invalidParam('device_silent', { warningCycles: 1 })).toBe('params.warningCycles');
    expect(invalidParam('device_silent', { warningCycles: 2.5 })).toBe('params.warningCycles');
    expect(invalidParam('no_production', { minutes: 5 })).toBe('params.minutes');
    expect(invalidParam('no_production', { thresholdW: 10, minElevationDeg: 61 })).toBe(
      'params.minElevationDeg',
    );
    expect(invalidParam('cell_spread', { spreadMv: 2001 })).toBe('params.spreadMv');
    expect(invalidParam('soh_falling', { floor: 70, days: 400 })).toBe('params.days');
    expect(invalidParam('event_code', { codes: [], allFaults: false })).toBe('params.codes');
    expect(invalidParam('event_code', { codes: ['F13; DROP'] })).toBe('params.codes');
    expect(invalidParam('event_code', { codes: ['F13'], allFaults: false })).toBeNull();
  });

  it('reads codes separated by commas or spaces, upper case', () => {
    expect(parseCodes(' f13, W02  f35;')).toEqual(['F13', 'W02', 'F35']);
    expect(parseCodes('')).toEqual([]);
  });
});
