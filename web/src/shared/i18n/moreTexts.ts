let loading: Promise<unknown> | undefined;
let added = false;

/**
 * The English texts beyond the first screens' (locales/en/more.json, 20 kB gzip): one chunk,
 * loaded once, beside the code of the first other screen that opens. The built-in English
 * holds only what the login page, the signed-in frame, the fleet dashboard, the plant list and
 * the welcome page show (scripts/split-en-texts.mjs), so that they load faster (issue 32).
 */
export function loadMoreTexts(): Promise<unknown> {
  loading ??= import('./more');
  return loading;
}

/** Whether those texts are in already (more.ts ran): then nothing needs to wait. */
export function moreTextsAdded(): boolean {
  return added;
}

/** Called by more.ts once it added the texts. */
export function markMoreTextsAdded(): void {
  added = true;
}
