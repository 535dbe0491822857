import { describe, expect, it } from 'vitest';
import { outcome, targetPath } from './api';

describe('audit outcome', () => {
  it('follows the command once there is one', () => {
    expect(outcome({ result: 'sent', commandStatus: 'succeeded' })).toBe('succeeded');
    expect(outcome({ result: 'refused', commandStatus: null })).toBe('refused');
  });

  it('links the target to its screen', () => {
    expect(targetPath({ action: 'gateway.restart', target: 'GW 1' })).toBe(
      '/device/gateway/GW%201',
    );
    expect(targetPath({ action: 'setting.set', target: 'INV1' })).toBe('/device/inverter/INV1');
    expect(targetPath({ action: 'firmware.upload', target: 'fw-2.0' })).toBeNull();
    expect(targetPath({ action: 'energyhub.dispatch', target: 'INV2' })).toBe(
      '/device/inverter/INV2',
    );
    expect(targetPath({ action: 'energyhub.restore', target: 'INV2' })).toBe(
      '/device/inverter/INV2',
    );
    expect(targetPath({ action: 'energyhub.event.cancel', target: '7' })).toBeNull();
    expect(targetPath({ action: 'gateway.import', target: 'gateways' })).toBeNull();
  });
});
