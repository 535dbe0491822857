import type { TokenStore, Tokens } from '../session';
import { ErrorCode } from './codes';
import { ApiError, NetworkError, SignedOutError } from './errors';
import {
  fetchTransport,
  TransportError,
  type HttpResponse,
  type RequestConfig,
  type Transport,
} from './transport';

export type { HeaderReader, HttpResponse, RequestConfig, Transport } from './transport';

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
  /** What sends the requests: fetch, or a test's fake server (src/test/http.ts). */
  transport: Transport;
  /** A request with the token, refresh, envelope codes and dialogs; the whole answer. */
  send<T = unknown>(config: RequestConfig): Promise<HttpResponse<T>>;
  /** The same, resolving to the envelope's `data`. */
  request<T>(config: RequestConfig): Promise<T>;
  get<T>(url: string, config?: RequestConfig): Promise<T>;
  post<T>(url: string, body?: unknown, config?: RequestConfig): Promise<T>;
}

function isEnvelope(body: unknown): body is Envelope<unknown> {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as Envelope<unknown>).code === 'number'
  );
}

/** Only the account API carries the bearer token; /anonymous and /oauth never do. */
function needsToken(url: string | undefined): boolean {
  return !!url && /^\/?api\//.test(url.replace(/^https?:\/\/[^/]+/, ''));
}

const TIMEOUT_MS = 60_000;

/** An HTTP status outside 2xx, with its answer (what axios rejected with). */
class StatusError extends Error {
  constructor(readonly response: HttpResponse) {
    super(`Request failed with status code ${response.status}`);
  }
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { tokens, ui, language, codeMessage, offline } = options;

  let refreshing: Promise<string> | null = null;
  let networkDialog: Promise<boolean> | null = null;

  /** The token, the user and the language on the way out; the status checked on the way in. */
  async function exchange(config: RequestConfig): Promise<HttpResponse> {
    const params = { ...config.params };
    if (params.lan === undefined) params.lan = language();
    const headers = { ...config.headers };
    const stored = tokens.get();
    if (stored && needsToken(config.url) && !config._refresh) {
      headers.Authorization = `Bearer ${stored.access_token}`;
      const user = offline?.user();
      if (user) headers['X-Portal-User'] = user;
    }
    const response = await client.transport({
      baseURL: options.baseURL ?? '',
      timeout: TIMEOUT_MS,
      ...config,
      params,
      headers,
    });
    if (response.status < 200 || response.status >= 300) throw new StatusError(response);
    return response;
  }

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
        const response = await exchange({
          method: 'POST',
          url: '/oauth/token',
          data: { grant_type: 'refresh_token', refresh_token: stored.refresh_token },
          _refresh: true,
        });
        fresh = (response.data as Envelope<Tokens>).data;
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

  async function replayAfterRefresh(
    config: RequestConfig,
    used: string | undefined,
  ): Promise<HttpResponse> {
    const current = tokens.get()?.access_token;
    // A request sent with an old token while a refresh already happened is simply replayed.
    if (!(current && used && used !== current)) await refreshOnce();
    return send({ ...config, _replayed: true });
  }

  function rejectCode(config: RequestConfig, body: Envelope<unknown>): never {
    const error = new ApiError(body.code, body.msg || codeMessage(body.code), body.data);
    if (config.handledCodes?.includes(body.code) || config.silent) throw error;
    if (body.code === ErrorCode.WrongCredentials) {
      // docs/overview.md: code 102 clears the stored sign-in and reloads to /login.
      signOut('invalid');
    }
    ui.toast(error.message, body.code);
    throw error;
  }

  async function onNetworkError(config: RequestConfig, cause: Error): Promise<HttpResponse> {
    networkDialog ??= ui.networkError().finally(() => {
      networkDialog = null;
    });
    const retry = await networkDialog;
    if (retry) return send(config);
    throw cause;
  }

  async function send<T>(config: RequestConfig): Promise<HttpResponse<T>> {
    // the token this request goes out with: a 401 to an older one needs no second refresh
    const used =
      needsToken(config.url) && !config._refresh ? tokens.get()?.access_token : undefined;
    let response: HttpResponse;
    try {
      response = await exchange(config);
    } catch (error) {
      if (config._refresh) throw error;
      const failed = error instanceof StatusError ? error.response : undefined;
      if (!failed && !(error instanceof TransportError)) throw error;
      const status = failed?.status;
      if (status === 401) {
        if (config.noRefresh) throw error;
        if (config._replayed || !tokens.get()) signOut('expired');
        return replayAfterRefresh(config, used) as Promise<HttpResponse<T>>;
      }
      if (!failed || (status !== undefined && status >= 500)) {
        const message = error instanceof Error ? error.message : undefined;
        if (config.silent) throw new NetworkError(message);
        return onNetworkError(config, new NetworkError(message)) as Promise<HttpResponse<T>>;
      }
      const body: unknown = failed.data;
      if (isEnvelope(body)) return rejectCode(config, body);
      return rejectCode(config, { code: -1, msg: codeMessage(-1), data: null });
    }
    if (offline && needsToken(config.url) && !config._refresh) {
      offline.answered(response.headers.get('x-portal-stale'));
    }
    const body: unknown = response.data;
    if (config._refresh || !isEnvelope(body) || body.code === 0) {
      return response as HttpResponse<T>;
    }
    if (body.code === ErrorCode.Unauthorized && !config._replayed && tokens.get()) {
      return replayAfterRefresh(config, used) as Promise<HttpResponse<T>>;
    }
    return rejectCode(config, body);
  }

  async function request<T>(config: RequestConfig): Promise<T> {
    const response = await send<Envelope<T>>(config);
    const body = response.data;
    return (isEnvelope(body) ? body.data : body) as T;
  }

  const client: HttpClient = {
    transport: fetchTransport,
    send,
    request,
    get: (url, config) => request({ ...config, method: 'GET', url }),
    post: (url, body, config) => request({ ...config, method: 'POST', url, data: body }),
  };
  return client;
}
