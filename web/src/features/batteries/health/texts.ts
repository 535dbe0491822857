// The battery health block's English texts, added when the block loads
// (shared/i18n/feature.ts).
import { addFeatureTexts } from '@/shared/i18n/feature';
import health from '@/shared/i18n/locales/en/batteryHealth.json';

addFeatureTexts({ batteries: { health } });
