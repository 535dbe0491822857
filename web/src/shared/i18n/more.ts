// The English texts of every screen but the first ones (scripts/split-en-texts.mjs chose them),
// added when such a screen first opens (shared/i18n/MoreTexts.tsx). Tests import this module
// directly: every text is in from the start.
import more from './locales/en/more.json';
import { addFeatureTexts } from './feature';
import { markMoreTextsAdded } from './moreTexts';

addFeatureTexts(more);
markMoreTextsAdded();
