import type { Schemas } from '../api/schema';

/** The tokens a sign-in or a refresh answers (`/oauth/token`, `/oauth/token/new`). */
export type TokenAnswer = Schemas['TokenData'];

/**
 * The stored sign-in (access_token and refresh_token kept client-side): an answer of the token
 * endpoints, of which only the two tokens are relied on when read back.
 */
export type Tokens = Pick<TokenAnswer, 'access_token' | 'refresh_token'> &
  Partial<Omit<TokenAnswer, 'access_token' | 'refresh_token'>>;

export interface TokenStore {
  get(): Tokens | null;
  set(tokens: Tokens): void;
  clear(): void;
}

const TOKENS_KEY = 'portal.auth';
const USER_KEY = 'portal.user';

function read(): Tokens | null {
  try {
    const raw = localStorage.getItem(TOKENS_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Tokens>;
    if (typeof parsed.access_token !== 'string' || typeof parsed.refresh_token !== 'string') {
      return null;
    }
    return parsed as Tokens;
  } catch {
    return null;
  }
}

export const tokenStore: TokenStore = {
  get: read,
  set(tokens) {
    localStorage.setItem(TOKENS_KEY, JSON.stringify(tokens));
  },
  clear() {
    localStorage.removeItem(TOKENS_KEY);
    localStorage.removeItem(USER_KEY);
  },
};

export function isSignedIn(): boolean {
  return tokenStore.get() !== null;
}

/** Remembers who is signed in (id and company) as other clients store it. */
export function rememberUser(info: { id: number; companyId: number | null }): void {
  localStorage.setItem(USER_KEY, JSON.stringify(info));
}

/** The remembered user's id, as text (the key of the service worker's copies), else null. */
export function rememberedUserId(): string | null {
  return /"id":(\d+)/.exec(localStorage.getItem(USER_KEY) ?? '')?.[1] ?? null;
}

/** localStorage: `{ id, endpoint }` of this browser's push subscription (shared/pwa/pushDevice). */
export const PUSH_DEVICE_KEY = 'portal.pushDevice';

const NOTICE_KEY = 'portal.notice';

/** A message the login screen shows once after a forced sign-out (e.g. password changed). */
/**
 * Sent on `window` when a sign-in starts: the signed-in frame's code (a chunk of its own, see
 * app/router.tsx) loads meanwhile instead of after it.
 */
export const SIGNING_IN_EVENT = 'portal:signing-in';

export function setSignInNotice(key: string): void {
  sessionStorage.setItem(NOTICE_KEY, key);
}

export function peekSignInNotice(): string | null {
  return sessionStorage.getItem(NOTICE_KEY);
}

export function clearSignInNotice(): void {
  sessionStorage.removeItem(NOTICE_KEY);
}
