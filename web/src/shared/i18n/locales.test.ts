import { describe, expect, it } from 'vitest';
import enFirst from './locales/en.json';
import enAlarms from './locales/en/alarms.json';
import enAudit from './locales/en/audit.json';
import enBatteryHealth from './locales/en/batteryHealth.json';
import enEnergyHub from './locales/en/energyHub.json';
import enFigures from './locales/en/figures.json';
import enFleet from './locales/en/fleet.json';
import enMore from './locales/en/more.json';
import enDownload from './locales/en/download.json';
import enNotify from './locales/en/notify.json';
import enPreferences from './locales/en/preferences.json';
import enPush from './locales/en/push.json';
import enWebhooks from './locales/en/webhooks.json';
import es from './locales/es.json';
import zh from './locales/zh.json';
import { Enums } from '../api/enums.gen';
import { ErrorCode } from '../api/schema.gen';

/**
 * Every code of the server's error catalogue (generated from its API document, `npm run
 * gen:api`) needs a message in every language: the http client shows it when the server sends
 * none, so a new code fails here until it is translated.
 */
const SERVER_ERROR_CODES: readonly number[] = Object.values(ErrorCode);

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );
}

function values(tree: Tree): string[] {
  return Object.values(tree).flatMap((v) => (typeof v === 'string' ? [v] : values(v)));
}

type Texts = { [key: string]: unknown };
const isTexts = (v: unknown): v is Texts => typeof v === 'object' && v !== null;

/** The built-in English and the texts beyond the first screens', as i18next merges them. */
function merge(a: Texts, b: Texts): Texts {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const mine = out[k];
    out[k] = isTexts(v) && isTexts(mine) ? merge(mine, v) : v;
  }
  return out;
}

const enBuiltIn = merge(enFirst, enMore) as typeof enFirst & typeof enMore;

/** English as a user has it once every screen loaded: built in, plus the features' own texts. */
const en = {
  ...enBuiltIn,
  alarms: {
    ...enBuiltIn.alarms,
    ...enAlarms,
    rules: { ...enBuiltIn.alarms.rules, ...enAlarms.rules },
  },
  audit: { ...enBuiltIn.audit, ...enAudit },
  batteries: { ...enBuiltIn.batteries, health: enBatteryHealth },
  energyHub: { ...enBuiltIn.energyHub, ...enEnergyHub },
  fleet: enFleet,
  webhooks: enWebhooks,
  push: enPush,
  download: enDownload,
  notify: enNotify,
  preferences: { ...enBuiltIn.preferences, ...enPreferences },
  overview: { ...enBuiltIn.overview, figures: enFigures },
};

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
    expect(SERVER_ERROR_CODES.length).toBeGreaterThan(0);
    for (const [lang, tree] of Object.entries(locales)) {
      const errors = tree.errors as Tree;
      const missing = SERVER_ERROR_CODES.filter(
        (c) => typeof errors[String(c)] !== 'string' || !errors[String(c)],
      );
      expect({ lang, missing }).toEqual({ lang, missing: [] });
    }
  });

  it('have a label for every action of the audit catalogue in every language', () => {
    // The maintenance log shows an action without a label by its raw name; the catalogue is
    // generated from the API document, so an action the server adds fails here until labelled.
    expect(Enums.AuditAction.length).toBeGreaterThan(0);
    for (const [lang, tree] of Object.entries(locales)) {
      const labels = (tree.audit as Tree).action as Tree;
      const missing = Enums.AuditAction.filter((a) => typeof labels[a] !== 'string' || !labels[a]);
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
