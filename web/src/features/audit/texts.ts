// The maintenance log's English texts, added when its screen loads (shared/i18n/feature.ts).
import { addFeatureTexts } from '@/shared/i18n/feature';
import audit from '@/shared/i18n/locales/en/audit.json';

addFeatureTexts({ audit });
