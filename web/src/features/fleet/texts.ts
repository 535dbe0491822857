// The fleet dashboard's English texts, added when its screen loads (shared/i18n/feature.ts).
import { addFeatureTexts } from '@/shared/i18n/feature';
import fleet from '@/shared/i18n/locales/en/fleet.json';

addFeatureTexts({ fleet });
