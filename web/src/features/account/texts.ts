// The webhook and quiet-hour texts, added when personal settings load (shared/i18n/feature.ts).
import { addFeatureTexts } from '@/shared/i18n/feature';
import webhooks from '@/shared/i18n/locales/en/webhooks.json';

addFeatureTexts({ webhooks });
