import { describe, expect, it } from 'vitest';
import { landing } from './landing';

describe('landing', () => {
  it('opens the fleet dashboard for more than one plant', () => {
    expect(landing(2, { id: 1, type: 1 })).toBe('dashboard');
    expect(landing(5000, { id: 1, type: 1 })).toBe('dashboard');
  });

  it("opens the one plant's overview", () => {
    expect(landing(1, { id: 42, type: 2 })).toBe('/plants/overview/42/2');
  });

  it('opens the plant list to add the first plant when there is none', () => {
    expect(landing(0, undefined)).toBe('/plants');
    // a count of one whose row is gone meanwhile: the list, not a broken overview
    expect(landing(1, undefined)).toBe('/plants');
  });
});
