import { describe, expect, it } from 'vitest';
import { plantState, shownState, shownStatus } from './live';
import { StatusCode, SWITCHED_OFF } from '@/shared/ui/status';

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

  it('reads Off for a plant the server says is switched off, unless something else wins', () => {
    // whether every fresh inverter is off is the server's rule (`switchedOff`)
    expect(plantState(StatusCode.normal, false, true)).toBe(SWITCHED_OFF);
    expect(plantState(StatusCode.normal, false, false).key).toBe('normal');
    expect(plantState(StatusCode.normal, undefined, undefined).key).toBe('normal');
    expect(plantState(StatusCode.normal, true, true).key).toBe('offline');
    expect(plantState(StatusCode.fault, false, true).key).toBe('fault');
  });
});
