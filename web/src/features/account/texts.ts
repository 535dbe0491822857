// Personal settings' texts (webhooks, push, event e-mails, preferences), added when personal
// settings load (shared/i18n/feature.ts).
import { addFeatureTexts } from '@/shared/i18n/feature';
import notify from '@/shared/i18n/locales/en/notify.json';
import preferences from '@/shared/i18n/locales/en/preferences.json';
import push from '@/shared/i18n/locales/en/push.json';
import webhooks from '@/shared/i18n/locales/en/webhooks.json';

addFeatureTexts({ webhooks, push, notify, preferences });
