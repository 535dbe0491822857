import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import es from './locales/es.json';
import zh from './locales/zh.json';

/**
 * Every code of docs/api-conventions.md, and those the portal adds (docs/api.md), needs a
 * message in every language.
 */
export const SERVER_ERROR_CODES = [
  1, 2, 4, 5, 6, 10, 101, 102, 103, 104, 105, 106, 108, 202, 203, 207, 300, 301, 305, 401, 600, 601,
  700, 701, 702, 703, 800, 801, 802, 900, 901, 902, 903, 4000, 4001, 4002, 5000,
  // added by the portal
  3, 7, 11, 12, 13, 109, 110, 111,
  // the energy hub
  1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011,
];

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );
}

function values(tree: Tree): string[] {
  return Object.values(tree).flatMap((v) => (typeof v === 'string' ? [v] : values(v)));
}

const locales = { en, zh, es } as Record<string, Tree>;

describe('locale files', () => {
  it('have the same keys in en, zh and es', () => {
    const reference = keys(locales.en as Tree).sort();
    for (const [lang, tree] of Object.entries(locales)) {
      const own = keys(tree).sort();
      expect({ lang, missing: reference.filter((k) => !own.includes(k)) }).toEqual({
        lang,
        missing: [],
      });
      expect({ lang, extra: own.filter((k) => !reference.includes(k)) }).toEqual({
        lang,
        extra: [],
      });
    }
  });

  it('have a message for every server error code in every language', () => {
    for (const [lang, tree] of Object.entries(locales)) {
      const errors = tree.errors as Tree;
      const missing = SERVER_ERROR_CODES.filter(
        (c) => typeof errors[String(c)] !== 'string' || !errors[String(c)],
      );
      expect({ lang, missing }).toEqual({ lang, missing: [] });
    }
  });

  it('have no empty message and the same placeholders in each language', () => {
    const placeholders = (s: string) => (s.match(/{{\w+}}/g) ?? []).sort().join(',');
    const flat = (tree: Tree, prefix = ''): [string, string][] =>
      Object.entries(tree).flatMap(([k, v]) =>
        typeof v === 'string'
          ? [[`${prefix}${k}`, v] as [string, string]]
          : flat(v, `${prefix}${k}.`),
      );
    const enMap = new Map(flat(locales.en as Tree));
    for (const [lang, tree] of Object.entries(locales)) {
      expect(values(tree).filter((v) => !v.trim())).toEqual([]);
      for (const [key, value] of flat(tree)) {
        expect({ lang, key, p: placeholders(value) }).toEqual({
          lang,
          key,
          p: placeholders(enMap.get(key) ?? ''),
        });
      }
    }
  });

  it('cover every translation key used in the source', async () => {
    const files = import.meta.glob('/src/**/*.{ts,tsx}', {
      query: '?raw',
      import: 'default',
      eager: true,
    });
    const known = new Set(keys(locales.en as Tree));
    const missing: string[] = [];
    for (const [file, source] of Object.entries(files)) {
      if (file.includes('.test.')) continue;
      for (const match of (source as string).matchAll(/\bt\(\s*'([a-zA-Z][\w]*(?:\.[\w]+)+)'/g)) {
        const key = match[1] ?? '';
        if (!known.has(key)) missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
