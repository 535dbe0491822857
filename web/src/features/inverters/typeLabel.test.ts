import { describe, expect, it } from 'vitest';
import { inverterTypeKey, inverterTypeLabelKey, isHybrid, TYPE_FILTER_CODES } from './typeLabel';

describe('inverter type labels', () => {
  it('follow the spec table and the server rule code by code', () => {
    const table: [number, string][] = [
      [1, 'grid_tied'],
      [10, 'grid_tied'],
      [11, 'grid_tied'],
      [2, 'single_phase_lv_hybrid'],
      [3, 'micro'],
      [94, 'three_phase_hv_hybrid'],
      [21, 'single_phase_hv_hybrid'],
      [93, 'three_phase_lv_hybrid'],
      [22, 'single_phase_hybrid'],
      [5, 'three_phase_hybrid'],
      [-7, 'three_phase_hybrid'],
      [0, 'string'],
    ];
    for (const [code, key] of table) expect(inverterTypeKey(code), String(code)).toBe(key);
    expect(inverterTypeKey(null)).toBe('string');
    expect(inverterTypeLabelKey(93)).toBe('inverters.type.three_phase_lv_hybrid');
  });

  it('knows which types have a battery port', () => {
    expect(isHybrid(2)).toBe(true);
    expect(isHybrid(94)).toBe(true);
    expect(isHybrid(1)).toBe(false);
    expect(isHybrid(3)).toBe(false);
  });

  it('offers one filter code per distinct label', () => {
    const keys = TYPE_FILTER_CODES.map(inverterTypeKey);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
