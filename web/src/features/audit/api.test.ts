import { describe, expect, it } from 'vitest';
import { outcome, outcomeColor } from './api';

describe('audit outcome', () => {
  it('follows the command once there is one', () => {
    expect(outcome({ result: 'sent', commandStatus: 'succeeded' })).toBe('succeeded');
    expect(outcome({ result: 'refused', commandStatus: null })).toBe('refused');
    expect(outcomeColor('timed_out')).toBe('error');
    expect(outcomeColor('sent')).toBe('processing');
    expect(outcomeColor('succeeded')).toBe('success');
  });
});
