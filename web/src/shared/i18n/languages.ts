export const LANGUAGES = ['en', 'zh', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

const STORAGE_KEY = 'portal.lang';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Codes other clients store for the same languages (some store `cn` for Chinese). */
const ALIASES: Record<string, Language> = {
  cn: 'zh',
  'zh-cn': 'zh',
  'zh-CN': 'zh',
  'en-US': 'en',
  'es-ES': 'es',
};

/** The stored language, English when none (or an unknown one) is stored. */
export function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    if (value && ALIASES[value]) return ALIASES[value];
    return isLanguage(value) ? value : 'en';
  } catch {
    return 'en';
  }
}

export function storeLanguage(lang: Language): void {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // storage unavailable (private mode): the choice lasts for this page only
  }
}
