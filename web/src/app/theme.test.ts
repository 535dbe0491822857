import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { antdTheme } from './theme';

describe('antdTheme', () => {
  it("keeps antd's motion unless the user asked for less", () => {
    const moving = theme.getDesignToken(antdTheme('default', '#00cc00'));
    expect(moving.motion).toBe(true);
    expect(moving.motionDurationMid).not.toBe('0s');

    const still = theme.getDesignToken(antdTheme('branded', '#00cc00', false));
    expect(still.motion).toBe(false);
    expect(still.motionDurationMid).toBe('0s');
  });
});
