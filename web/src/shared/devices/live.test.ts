import { describe, expect, it } from 'vitest';
import { plantState, shownState, shownStatus } from './live';
import { StatusCode } from '@/shared/ui/status';

const inverter = (powerOn: boolean | null, stale = false) => ({
  family: 'inverter',
  stale,
  powerOn,
});

describe('the status a badge shows', () => {
  it('is offline once the values are stale, whatever was stored', () => {
    expect(shownStatus(StatusCode.normal, true)).toBe(StatusCode.offline);
    expect(shownStatus(StatusCode.upgrading, false)).toBe(StatusCode.upgrading);
  });

  it('reads Off for a normal inverter that reports itself switched off', () => {
    expect(shownState(StatusCode.normal, false, false).key).toBe('off');
    expect(shownState(StatusCode.normal, false, true).key).toBe('normal');
    expect(shownState(StatusCode.normal, false, null).key).toBe('normal');
  });

  it('lets offline, a warning or a fault win over Off', () => {
    expect(shownState(StatusCode.normal, true, false).key).toBe('offline');
    expect(shownState(StatusCode.warning, false, false).key).toBe('warning');
    expect(shownState(StatusCode.fault, false, false).key).toBe('fault');
  });

  it('reads Off for a plant only when every inverter with fresh data is off', () => {
    const normal = StatusCode.normal;
    expect(plantState(normal, false, [inverter(false), inverter(false)]).key).toBe('off');
    expect(plantState(normal, false, [inverter(false), inverter(true)]).key).toBe('normal');
    // A stale inverter says nothing about now; a meter has no power switch.
    expect(
      plantState(normal, false, [
        inverter(false),
        inverter(true, true),
        { family: 'meter', stale: false },
      ]).key,
    ).toBe('off');
    expect(plantState(normal, false, []).key).toBe('normal');
    expect(plantState(normal, false, undefined).key).toBe('normal');
    expect(plantState(normal, true, [inverter(false)]).key).toBe('offline');
  });
});
