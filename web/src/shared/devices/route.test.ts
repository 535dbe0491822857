import { describe, expect, it } from 'vitest';
import { Enums } from '@/shared/api/enums.gen';
import { deviceRoute } from './route';

describe('deviceRoute', () => {
  it('opens every family the server names on its screen, the SN encoded', () => {
    expect(deviceRoute('inverter', 'INV 1')).toBe('/device/inverter/INV%201');
    expect(deviceRoute('weather_station', 'W1')).toBe('/device/weather/W1');
    expect(deviceRoute('combiner', 'CB1')).toBe('/device/combiner/CB1');
    for (const family of Enums.DeviceFamily) expect(deviceRoute(family, 'X')).not.toBeNull();
  });

  it('links nowhere for a family it does not know', () => {
    expect(deviceRoute('camera', 'C1')).toBeNull();
  });
});
