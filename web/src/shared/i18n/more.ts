// The English texts of every screen but the first ones (scripts/split-en-texts.mjs chose them),
// added when such a screen first opens (shared/i18n/MoreTexts.tsx).
import more from './locales/en/more.json';
import { addFeatureTexts } from './feature';

addFeatureTexts(more);
