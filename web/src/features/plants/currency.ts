import type { Language } from '@/shared/i18n';

const LOCALE: Record<Language, string> = { en: 'en', zh: 'zh-CN', es: 'es' };

/**
 * A currency's name in the reader's language ("欧元", "euro", "Euro") from the browser's own
 * data (Intl.DisplayNames): the plant detail carries only code and symbol. Empty when unknown.
 */
export function currencyName(code: string | null | undefined, lang: Language): string {
  if (!code) return '';
  try {
    const name = new Intl.DisplayNames([LOCALE[lang]], { type: 'currency' }).of(code);
    return name && name !== code ? name : '';
  } catch {
    return '';
  }
}
