import { describe, expect, it } from 'vitest';
import { outcomeColor, severityColor, STATUSES, statusOf } from './status';

describe('status colours', () => {
  it('reads an unknown status code as offline', () => {
    expect(statusOf(3).key).toBe('fault');
    expect(statusOf(9).key).toBe('offline');
    expect(statusOf(null).color).toBe(statusOf(0).color);
    expect(new Set(STATUSES.map((s) => s.color)).size).toBe(STATUSES.length);
  });

  it('colours an unknown severity as a warning', () => {
    expect(severityColor('fault')).toBe(statusOf(3).color);
    expect(severityColor('loud')).toBe(severityColor('warning'));
  });

  it('tells done, failed, cancelled and running outcomes of every kind apart', () => {
    expect(['succeeded', 'successful', 'ok'].map(outcomeColor)).toEqual([
      'success',
      'success',
      'success',
    ]);
    expect(['failed', 'timed_out', 'refused'].map(outcomeColor)).toEqual([
      'error',
      'error',
      'error',
    ]);
    expect(outcomeColor('cancelled')).toBe('default');
    expect(outcomeColor('queued')).toBe('warning');
    expect(['sent', 'acknowledged', 'upgrading'].map(outcomeColor)).toEqual([
      'processing',
      'processing',
      'processing',
    ]);
  });
});
