import type { Locale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';
import dayjs from 'dayjs';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';
import { isLanguage, storeLanguage, storedLanguage, type Language } from './languages';

export * from './languages';

/** Ant Design's own texts (pagination, date pickers, ...) per language, once loaded. */
const ANTD_LOCALES: Partial<Record<Language, Locale>> = { en: enUS };

/**
 * English is built in (and the fallback); the other languages' texts, dayjs and Ant Design
 * locales are chunks of their own, loaded for the users who chose them: nobody downloads three
 * languages before the first screen (docs/performance.md, "Web app"). The `es/` (ES module)
 * locales of antd: `antd/locale/*` are CommonJS copies that would bundle a second time.
 */
const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<Record<string, unknown>>> = {
  zh: () =>
    Promise.all([
      import('./locales/zh.json'),
      import('antd/es/locale/zh_CN'),
      import('dayjs/locale/zh-cn'),
    ]).then(([texts, antd]) => {
      ANTD_LOCALES.zh = antd.default;
      return texts.default;
    }),
  es: () =>
    Promise.all([
      import('./locales/es.json'),
      import('antd/es/locale/es_ES'),
      import('dayjs/locale/es'),
    ]).then(([texts, antd]) => {
      ANTD_LOCALES.es = antd.default;
      return texts.default;
    }),
};

const DAYJS_LOCALE: Record<Language, string> = { en: 'en', zh: 'zh-cn', es: 'es' };

/** Loads a language's texts (and its dayjs locale) once. */
async function load(lang: Language): Promise<void> {
  if (lang === 'en' || i18n.hasResourceBundle(lang, 'translation')) return;
  i18n.addResourceBundle(lang, 'translation', await LOADERS[lang]());
}

const initial = storedLanguage();
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: initial,
  fallbackLng: 'en',
  partialBundledLanguages: true,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/**
 * Resolves once the stored language's texts are in: the app renders after it (main.tsx), so
 * a Chinese or Spanish user never sees English first. A language chunk that fails to load
 * (network) leaves English, which is complete.
 */
export const i18nReady: Promise<void> = load(initial)
  .then(() => {
    dayjs.locale(DAYJS_LOCALE[initial]);
    return i18n.changeLanguage(initial);
  })
  .then(
    () => undefined,
    () => undefined,
  );

/** Ant Design's locale for a language (English until that language has loaded). */
export function antdLocale(lang: Language): Locale {
  return ANTD_LOCALES[lang] ?? enUS;
}

/** The language every server call carries as `lan`. */
export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : 'en';
}

export async function changeLanguage(lang: Language): Promise<void> {
  await load(lang);
  storeLanguage(lang);
  dayjs.locale(DAYJS_LOCALE[lang]);
  await i18n.changeLanguage(lang);
  document.documentElement.lang = lang;
}

export { i18n };
