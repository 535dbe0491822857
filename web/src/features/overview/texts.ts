// The plant figures' English texts, added when the overview's Performance card loads
// (shared/i18n/feature.ts).
import { addFeatureTexts } from '@/shared/i18n/feature';
import figures from '@/shared/i18n/locales/en/figures.json';

addFeatureTexts({ overview: { figures } });
