import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { LOG_PRESETS, logPresetRange, toMinute } from './ranges';

const now = dayjs('2026-11-25T10:42:17');

describe('logPresetRange', () => {
  it('ends every preset at the current minute', () => {
    for (const p of LOG_PRESETS) {
      expect(toMinute(logPresetRange(p, now)[1])).toBe('2026-11-25T10:42');
    }
  });

  it('starts each preset its span before now', () => {
    const start = (p: (typeof LOG_PRESETS)[number]) => toMinute(logPresetRange(p, now)[0]);
    expect(start('last15m')).toBe('2026-11-25T10:27');
    expect(start('lastHour')).toBe('2026-11-25T09:42');
    expect(start('last6h')).toBe('2026-11-25T04:42');
    expect(start('last24h')).toBe('2026-11-24T10:42');
    expect(start('today')).toBe('2026-11-25T00:00');
    expect(start('last3d')).toBe('2026-11-22T10:42');
  });

  it('writes no time for an empty end', () => {
    expect(toMinute(null)).toBe('');
  });
});
