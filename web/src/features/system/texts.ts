// The app download page's texts, added when it loads (shared/i18n/feature.ts).
import { addFeatureTexts } from '@/shared/i18n/feature';
import download from '@/shared/i18n/locales/en/download.json';

addFeatureTexts({ download });
