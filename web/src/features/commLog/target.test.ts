import { describe, expect, it } from 'vitest';
import { logTarget } from './target';

describe('logTarget', () => {
  it('opens the maintenance log when the user may read it', () => {
    expect(
      logTarget(new Set(['logger.management', 'logger.upgrade.record', 'logger.communication'])),
    ).toBe('/log/uphold');
  });

  it('falls back to the first log allowed', () => {
    expect(logTarget(new Set(['logger.management', 'logger.communication']))).toBe(
      '/log/communication',
    );
    expect(logTarget(new Set(['logger.management']))).toBe('/log/debug');
    expect(logTarget(new Set(['station.view']))).toBe('/');
  });
});
