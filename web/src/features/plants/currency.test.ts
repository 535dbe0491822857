import { describe, expect, it } from 'vitest';
import { currencyName } from './currency';

describe('currencyName', () => {
  it("names a currency in the reader's language", () => {
    expect(currencyName('EUR', 'en')).toBe('Euro');
    expect(currencyName('EUR', 'zh')).toBe('欧元');
    expect(currencyName('USD', 'es')).toMatch(/dólar estadounidense/i);
    expect(currencyName('ZAR', 'en')).toBe('South African Rand');
  });

  it('answers nothing for a missing or unknown code', () => {
    expect(currencyName(undefined, 'en')).toBe('');
    expect(currencyName('XYZ1', 'en')).toBe('');
  });
});
