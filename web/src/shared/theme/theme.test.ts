import { describe, expect, it } from 'vitest';
import { safeColor, themeKindFor } from '.';

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
