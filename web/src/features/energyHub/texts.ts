// The energy hub's English texts, added when its screens load (shared/i18n/feature.ts).
import { addFeatureTexts } from '@/shared/i18n/feature';
import energyHub from '@/shared/i18n/locales/en/energyHub.json';

addFeatureTexts({ energyHub });
