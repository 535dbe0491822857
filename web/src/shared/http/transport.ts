/**
 * The wire under the http client (client.ts): one request, one answer, whatever its status. A
 * fetch of its own instead of axios (issue 32: axios was 15 kB gzip of every first screen). It
 * keeps what the app relied on from axios: the query written as axios wrote it (`a[]=1&a[]=2`,
 * `null` and `undefined` left out, dates as ISO text), a plain object sent as JSON and FormData
 * as it is, a JSON answer parsed (any other text kept as text), a timeout. No upload progress:
 * no screen shows one.
 */

/** What a request may say; the envelope options are the client's (client.ts). */
export interface RequestConfig {
  url?: string;
  method?: string;
  baseURL?: string;
  /** The query; `lan` is added by the client. */
  params?: Record<string, unknown>;
  /** The body: a plain object or array goes as JSON, FormData, Blob and text as they are. */
  data?: unknown;
  headers?: Record<string, string>;
  /** Milliseconds until the request is given up (a network error); 0: never. */
  timeout?: number;
  signal?: AbortSignal;
  /** `blob` for a file answer; else JSON when it parses, text when not. */
  responseType?: 'json' | 'blob';
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

/** The answer's headers, by case-insensitive name (`Headers` fits). */
export interface HeaderReader {
  get(name: string): string | null;
}

export interface HttpResponse<T = unknown> {
  data: T;
  status: number;
  headers: HeaderReader;
  config: RequestConfig;
}

/** Sends a request; resolves with any HTTP status, rejects only when no answer came. */
export type Transport = (config: RequestConfig) => Promise<HttpResponse>;

/** No answer: the connection failed, the request timed out or was cancelled. */
export class TransportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransportError';
  }
}

// axios's encoding of a query value: encodeURIComponent, then a few characters left readable
const encode = (value: string) =>
  encodeURIComponent(value)
    .replace(/%3A/gi, ':')
    .replace(/%24/g, '$')
    .replace(/%2C/gi, ',')
    .replace(/%20/g, '+')
    .replace(/%5B/gi, '[')
    .replace(/%5D/gi, ']');

const text = (value: unknown): string =>
  value instanceof Date
    ? value.toISOString()
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value as string | number | boolean);

/** The query string of `params` as axios wrote it (no leading `?`). */
export function queryString(params: Record<string, unknown> | undefined): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value === null || value === undefined) continue;
    const many = Array.isArray(value);
    for (const v of many ? (value as unknown[]) : [value]) {
      if (v === null || v === undefined) continue;
      parts.push(`${encode(key)}${many ? '[]' : ''}=${encode(text(v))}`);
    }
  }
  return parts.join('&');
}

/** The full URL of a request: base, path, the URL's own query and `params`. */
export function urlOf(config: RequestConfig): string {
  const url = config.url ?? '';
  const full = /^https?:\/\//.test(url) ? url : `${config.baseURL ?? ''}${url}`;
  const query = queryString(config.params);
  if (!query) return full;
  return `${full}${full.includes('?') ? '&' : '?'}${query}`;
}

function bodyOf(data: unknown, headers: Headers): BodyInit | undefined {
  if (data === undefined || data === null) return undefined;
  if (
    data instanceof FormData ||
    data instanceof Blob ||
    data instanceof URLSearchParams ||
    data instanceof ArrayBuffer ||
    typeof data === 'string'
  )
    return data;
  if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  return JSON.stringify(data);
}

async function readBody(response: Response, type: RequestConfig['responseType']) {
  if (type === 'blob') return response.blob();
  const body = await response.text();
  if (!body) return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** The browser's fetch, with a timeout and the caller's signal. */
export const fetchTransport: Transport = async (config) => {
  const headers = new Headers(config.headers);
  headers.set('Accept', headers.get('Accept') ?? 'application/json, text/plain, */*');
  const abort = new AbortController();
  const outer = config.signal;
  const cancel = () => abort.abort();
  if (outer?.aborted) abort.abort();
  outer?.addEventListener('abort', cancel);
  let timedOut = false;
  const timer = config.timeout
    ? setTimeout(() => {
        timedOut = true;
        abort.abort();
      }, config.timeout)
    : undefined;
  const method = (config.method ?? 'GET').toUpperCase();
  try {
    const response = await fetch(urlOf(config), {
      method,
      headers,
      // a GET or HEAD has no body (XMLHttpRequest dropped one; fetch refuses it)
      body: method === 'GET' || method === 'HEAD' ? undefined : bodyOf(config.data, headers),
      signal: abort.signal,
      credentials: 'same-origin',
    });
    const data = await readBody(response, config.responseType);
    return { data, status: response.status, headers: response.headers, config };
  } catch (e) {
    if (timedOut) throw new TransportError(`timeout of ${config.timeout}ms exceeded`);
    if (outer?.aborted) throw new TransportError('canceled');
    throw new TransportError(e instanceof Error ? e.message : 'Network Error');
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', cancel);
  }
};
