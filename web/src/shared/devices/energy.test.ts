import { describe, expect, it } from 'vitest';
import { energyText } from './energy';

describe('energy display', () => {
  it('moves to the next prefix instead of stacking them', () => {
    expect(energyText('83.2')).toBe('83.2 kWh');
    expect(energyText(1339)).toBe('1.3 MWh');
    expect(energyText('0.5')).toBe('0.5 kWh');
    expect(energyText('0.0')).toBe('0 Wh');
    expect(energyText(null)).toBe('--');
    expect(energyText('x')).toBe('--');
  });
});
