import i18n from 'i18next';

/**
 * Adds English texts of screens nobody opens first (the energy hub, the maintenance log: the
 * files under `locales/en/`), kept out of the built-in English so that the app's first download
 * stays small (docs/performance.md, "Web app"). A feature's `texts.ts` adds its own when its
 * screens' chunk loads, deep-merged into the section whose menu labels stay built in. The
 * other languages are chunks of their own already and hold every text.
 */
export function addFeatureTexts(texts: Record<string, unknown>): void {
  i18n.addResourceBundle('en', 'translation', texts, true, false);
}
