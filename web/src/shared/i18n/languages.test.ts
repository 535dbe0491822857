import { afterEach, describe, expect, it } from 'vitest';
import { storedLanguage, storeLanguage } from './languages';

afterEach(() => localStorage.clear());

describe('the stored language', () => {
  it('defaults to English and keeps a chosen language', () => {
    expect(storedLanguage()).toBe('en');
    storeLanguage('es');
    expect(storedLanguage()).toBe('es');
  });

  it('reads the cn code of the other reading as Chinese and ignores unknown codes', () => {
    localStorage.setItem('portal.lang', 'cn');
    expect(storedLanguage()).toBe('zh');
    localStorage.setItem('portal.lang', 'fr');
    expect(storedLanguage()).toBe('en');
  });
});
