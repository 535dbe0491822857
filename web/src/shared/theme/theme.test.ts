import { describe, expect, it } from 'vitest';
import { safeColor, SERIES_GREY, SERIES_PALETTE, themeKindFor } from '.';

describe('themeKindFor', () => {
  it('picks the branded theme when the host is configured', () => {
    expect(themeKindFor('localhost', ['localhost'])).toBe('branded');
    expect(themeKindFor('portal.brand.com', ['a.example', 'https://Portal.Brand.com:8443/x'])).toBe(
      'branded',
    );
  });
  it('keeps the default theme otherwise', () => {
    expect(themeKindFor('127.0.0.1', ['localhost'])).toBe('default');
    expect(themeKindFor('localhost', [])).toBe('default');
    expect(themeKindFor('localhost', ['', ' '])).toBe('default');
  });
});

describe('safeColor', () => {
  it('accepts #rrggbb and falls back otherwise', () => {
    expect(safeColor('#1677FF', '#00cc00')).toBe('#1677FF');
    expect(safeColor('red', '#00cc00')).toBe('#00cc00');
    expect(safeColor(null, '#00cc00')).toBe('#00cc00');
  });
});

describe('the series palette', () => {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a: string, b: string) => {
    const [lo, hi] = [luminance(a), luminance(b)].sort((x, y) => x - y) as [number, number];
    return (hi + 0.05) / (lo + 0.05);
  };

  it('has eight distinct colours, each readable on white and on the dark theme', () => {
    expect(new Set(SERIES_PALETTE).size).toBe(8);
    // white cards (branded theme) and the dark theme's cards (app/theme.ts colorBgContainer)
    for (const c of [...SERIES_PALETTE, SERIES_GREY]) {
      expect(contrast(c, '#ffffff'), c).toBeGreaterThanOrEqual(3);
      expect(contrast(c, '#141a17'), c).toBeGreaterThanOrEqual(3);
    }
  });
});
