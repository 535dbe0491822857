import dayjs from 'dayjs';
import 'dayjs/locale/es';
import 'dayjs/locale/zh-cn';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';
import es from './locales/es.json';
import zh from './locales/zh.json';
import { isLanguage, storeLanguage, storedLanguage, type Language } from './languages';

export * from './languages';

export const resources = {
  en: { translation: en },
  zh: { translation: zh },
  es: { translation: es },
} as const;

const DAYJS_LOCALE: Record<Language, string> = { en: 'en', zh: 'zh-cn', es: 'es' };

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
});
dayjs.locale(DAYJS_LOCALE[storedLanguage()]);

/** The language every server call carries as `lan`. */
export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : 'en';
}

export async function changeLanguage(lang: Language): Promise<void> {
  storeLanguage(lang);
  dayjs.locale(DAYJS_LOCALE[lang]);
  await i18n.changeLanguage(lang);
  document.documentElement.lang = lang;
}

export { i18n };
