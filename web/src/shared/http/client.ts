import axios, {
  AxiosHeaders,
  isAxiosError,
  type AxiosInstance,
  type AxiosRequestConfig,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';
import type { TokenStore, Tokens } from '../session';
import { ErrorCode } from './codes';
import { ApiError, NetworkError, SignedOutError } from './errors';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Envelope codes the calling screen handles itself: no toast, the promise rejects. */
    handledCodes?: readonly number[];
    /** No toast and no network dialog: the caller shows its own state (e.g. an empty page). */
    silent?: boolean;
    /** On HTTP 401 just reject: no refresh, no sign-out (e.g. the logout call itself). */
    noRefresh?: boolean;
    /** Internal: this request is the token refresh itself. */
    _refresh?: boolean;
    /** Internal: this request was already replayed after a refresh. */
    _replayed?: boolean;
  }
}

/** The JSON envelope of every answer (docs/api-conventions.md). */
export interface Envelope<T> {
  code: number;
  msg?: string;
  data: T;
  success?: boolean;
}

/** What the client needs from the screen: toasts, the network dialog, leaving for /login. */
export interface HttpUi {
  /** A non-zero code nobody handles: show `message` as an error toast. */
  toast(message: string, code: number): void;
  /** The network-exception dialog; resolves true when the user confirms (retry). */
  networkError(): Promise<boolean>;
  /** The stored sign-in was cleared: go to /login (reloading the page). */
  signedOut(reason: 'expired' | 'invalid'): void;
}

export interface HttpClientOptions {
  baseURL?: string;
  tokens: TokenStore;
  ui: HttpUi;
  /** The `lan` query parameter sent with every call. */
  language: () => string;
  /** The local catalogue message for a code, used when the server sends no `msg`. */
  codeMessage: (code: number) => string;
  /** The service worker's offline copies (docs/pwa.md). */
  offline?: OfflineHooks;
}

/** How API calls meet the service worker's per-user copies of their answers. */
export interface OfflineHooks {
  /** The signed-in user the copies are kept for (`X-Portal-User`), null: keep none. */
  user(): string | null;
  /** Each answer: its `X-Portal-Stale` time when it is a copy, null when the network answered. */
  answered(staleAt: string | null): void;
}

export interface HttpClient {
  readonly axios: AxiosInstance;
  request<T>(config: AxiosRequestConfig): Promise<T>;
  get<T>(url: string, config?: AxiosRequestConfig): Promise<T>;
  post<T>(url: string, body?: unknown, config?: AxiosRequestConfig): Promise<T>;
}

function isEnvelope(body: unknown): body is Envelope<unknown> {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as Envelope<unknown>).code === 'number'
  );
}

function bearerOf(config: AxiosRequestConfig): string | undefined {
  const header = AxiosHeaders.from(config.headers as AxiosHeaders).get('Authorization');
  return typeof header === 'string' ? header.replace(/^Bearer /, '') : undefined;
}

/** Only the account API carries the bearer token; /anonymous and /oauth never do. */
function needsToken(url: string | undefined): boolean {
  return !!url && /^\/?api\//.test(url.replace(/^https?:\/\/[^/]+/, ''));
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { tokens, ui, language, codeMessage, offline } = options;
  const instance = axios.create({ baseURL: options.baseURL ?? '', timeout: 60_000 });

  let refreshing: Promise<string> | null = null;
  let networkDialog: Promise<boolean> | null = null;

  instance.interceptors.request.use((config: InternalAxiosRequestConfig) => {
    const params = { ...(config.params as Record<string, unknown> | undefined) };
    if (params.lan === undefined) params.lan = language();
    config.params = params;
    const stored = tokens.get();
    if (stored && needsToken(config.url) && !config._refresh) {
      config.headers.set('Authorization', `Bearer ${stored.access_token}`);
      const user = offline?.user();
      if (user) config.headers.set('X-Portal-User', user);
    }
    return config;
  });

  function signOut(reason: 'expired' | 'invalid'): never {
    tokens.clear();
    ui.signedOut(reason);
    throw new SignedOutError();
  }

  /** One refresh at a time: every request failing meanwhile waits for the same promise. */
  function refreshOnce(): Promise<string> {
    refreshing ??= (async () => {
      const stored = tokens.get();
      if (!stored) signOut('expired');
      let fresh: Tokens;
      try {
        const response = await instance.post<Envelope<Tokens>>(
          '/oauth/token',
          { grant_type: 'refresh_token', refresh_token: stored.refresh_token },
          { _refresh: true },
        );
        fresh = response.data.data;
      } catch {
        signOut('expired');
      }
      if (!fresh?.access_token) signOut('expired');
      tokens.set({ ...fresh, refresh_token: fresh.refresh_token || stored.refresh_token });
      return fresh.access_token;
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  async function replayAfterRefresh(config: AxiosRequestConfig): Promise<AxiosResponse> {
    const used = bearerOf(config);
    const current = tokens.get()?.access_token;
    // A request sent with an old token while a refresh already happened is simply replayed.
    if (!(current && used && used !== current)) await refreshOnce();
    const headers = AxiosHeaders.from(config.headers as AxiosHeaders);
    headers.delete('Authorization');
    return instance.request({ ...config, headers, _replayed: true });
  }

  function rejectCode(config: AxiosRequestConfig, body: Envelope<unknown>): never {
    const error = new ApiError(body.code, body.msg || codeMessage(body.code), body.data);
    if (config.handledCodes?.includes(body.code) || config.silent) throw error;
    if (body.code === ErrorCode.WrongCredentials) {
      // docs/overview.md: code 102 clears the stored sign-in and reloads to /login.
      signOut('invalid');
    }
    ui.toast(error.message, body.code);
    throw error;
  }

  async function onNetworkError(
    config: AxiosRequestConfig,
    cause: unknown,
  ): Promise<AxiosResponse> {
    networkDialog ??= ui.networkError().finally(() => {
      networkDialog = null;
    });
    const retry = await networkDialog;
    if (retry) return instance.request(config);
    throw cause instanceof Error ? cause : new NetworkError();
  }

  instance.interceptors.response.use(
    (response) => {
      if (offline && needsToken(response.config.url) && !response.config._refresh) {
        offline.answered((response.headers['x-portal-stale'] as string | undefined) ?? null);
      }
      const body: unknown = response.data;
      if (response.config._refresh || !isEnvelope(body) || body.code === 0) return response;
      if (body.code === ErrorCode.Unauthorized && !response.config._replayed && tokens.get()) {
        return replayAfterRefresh(response.config);
      }
      return rejectCode(response.config, body);
    },
    async (error: unknown) => {
      if (!isAxiosError(error) || !error.config) throw error;
      const config = error.config;
      if (config._refresh) throw error;
      const status = error.response?.status;
      if (status === 401) {
        if (config.noRefresh) throw error;
        if (config._replayed || !tokens.get()) signOut('expired');
        return replayAfterRefresh(config);
      }
      if (!error.response || (status !== undefined && status >= 500)) {
        if (config.silent) throw new NetworkError(error.message);
        return onNetworkError(config, new NetworkError(error.message));
      }
      const body: unknown = error.response.data;
      if (isEnvelope(body)) return rejectCode(config, body);
      return rejectCode(config, { code: -1, msg: codeMessage(-1), data: null });
    },
  );

  async function request<T>(config: AxiosRequestConfig): Promise<T> {
    const response = await instance.request<Envelope<T>>(config);
    const body = response.data;
    return (isEnvelope(body) ? body.data : body) as T;
  }

  return {
    axios: instance,
    request,
    get: (url, config) => request({ ...config, method: 'GET', url }),
    post: (url, body, config) => request({ ...config, method: 'POST', url, data: body }),
  };
}
