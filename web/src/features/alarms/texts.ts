// The alarm screens' English texts, added when their chunk loads (shared/i18n/feature.ts).
import { addFeatureTexts } from '@/shared/i18n/feature';
import alarms from '@/shared/i18n/locales/en/alarms.json';

addFeatureTexts({ alarms });
