import { currentLanguage, i18n } from '../i18n';
import { answered } from '../pwa/state';
import { rememberedUserId, tokenStore } from '../session';
import { createHttpClient, type HttpUi } from './client';

export * from './errors';
export * from './codes';
export type { Page } from './page';
export type {
  Envelope,
  HeaderReader,
  HttpClient,
  HttpResponse,
  HttpUi,
  OfflineHooks,
  RequestConfig,
  Transport,
} from './client';
export { TransportError } from './transport';
export { createHttpClient } from './client';

/** The local catalogue message of an envelope code (docs/api-conventions.md). */
export function codeMessage(code: number): string {
  const key = `errors.${code}`;
  return i18n.exists(key) ? i18n.t(key) : i18n.t('errors.requestError');
}

let ui: HttpUi = {
  toast: (message) => console.error(message),
  networkError: () => Promise.resolve(false),
  signedOut: () => window.location.assign('/login'),
};

/** The app shell installs the real toasts and dialogs (antd) once it is mounted. */
export function setHttpUi(next: HttpUi): void {
  ui = next;
}

/** The one HTTP client every request goes through. */
export const http = createHttpClient({
  tokens: tokenStore,
  language: currentLanguage,
  codeMessage,
  offline: { user: rememberedUserId, answered },
  ui: {
    toast: (message, code) => ui.toast(message, code),
    networkError: () => ui.networkError(),
    signedOut: (reason) => ui.signedOut(reason),
  },
});
