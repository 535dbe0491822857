import { describe, expect, it } from 'vitest';
import { isHttpUrl } from './url';

describe('isHttpUrl', () => {
  it('takes http and https URLs with a name or an address', () => {
    expect(isHttpUrl('https://vtn.example.com/openadr3')).toBe(true);
    expect(isHttpUrl('http://127.0.0.1:9/openadr3')).toBe(true);
    expect(isHttpUrl('http://vtn:8080')).toBe(true);
  });

  it('refuses other schemes, bare hosts, padding and overlong values', () => {
    expect(isHttpUrl('ftp://vtn.example.com')).toBe(false);
    expect(isHttpUrl('vtn.example.com')).toBe(false);
    expect(isHttpUrl(' https://vtn.example.com')).toBe(false);
    expect(isHttpUrl(`https://vtn.example.com/${'a'.repeat(260)}`)).toBe(false);
    expect(isHttpUrl(42)).toBe(false);
  });
});
