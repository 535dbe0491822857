/**
 * The typed face of the one HTTP client (`http`, shared/http): a request names its path as the
 * API document spells it (`/api/v1/plant/{id}`), and `tsc` checks the method, the path
 * parameters, the query and the body against the generated `paths`, and types the answer as the
 * `data` of the operation's envelope. Everything else (the bearer token and its refresh, the
 * envelope's codes, `handledCodes`, `silent`) is the client's, unchanged.
 */
import { http, type RequestConfig } from '../http';
import { downloadFile } from '../http/download';
import type { paths } from './schema.gen';

type Method = 'get' | 'post' | 'delete';

/** The paths that have an operation for `M`. */
export type PathOf<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never;
}[keyof paths];

type Operation<P extends keyof paths, M extends Method> = Extract<
  paths[P][M],
  { responses: unknown }
>;

/**
 * One part of a request (`path`, `query`, `body`): required when the operation requires it,
 * optional when the document says so, absent when it has none.
 */
type Part<K extends string, T> = [T] extends [undefined]
  ? { [_ in K]?: never }
  : undefined extends T
    ? { [_ in K]?: Exclude<T, undefined> }
    : { [_ in K]: T };

// indexed access (not `infer`) keeps the `undefined` of an optional part
type Params<O> = O extends { parameters: infer X } ? X : never;
type PathParams<O> = Params<O> extends { path?: unknown } ? Params<O>['path'] : undefined;
type QueryParams<O> = Params<O> extends { query?: unknown } ? Params<O>['query'] : undefined;

type ContentOf<C> = C extends { 'application/json': infer J }
  ? J
  : C extends { 'multipart/form-data': unknown }
    ? FormData
    : never;
type RequestBody<O> = O extends { requestBody: { content: infer C } }
  ? ContentOf<C>
  : O extends { requestBody?: { content: infer C } }
    ? ContentOf<C> | undefined
    : undefined;

/** The client's own options of a request (shared/http/client.ts). */
export type RequestOptions = Pick<
  RequestConfig,
  'handledCodes' | 'silent' | 'noRefresh' | 'signal' | 'timeout'
> & {
  /**
   * The `lan` query parameter every operation takes (API conventions; the document does not
   * repeat it per operation). Without it the client sends the language shown.
   */
  lan?: string;
};

/** An operation of no request body may still be sent an empty JSON object (`body: {}`). */
type BodyPart<T> = [T] extends [undefined] ? { body?: Record<string, never> } : Part<'body', T>;

export type RequestInit<O> = Part<'path', PathParams<O>> &
  Part<'query', QueryParams<O>> &
  BodyPart<RequestBody<O>> &
  RequestOptions;

type Json<O> = O extends { responses: { 200: { content: { 'application/json': infer J } } } }
  ? J
  : never;

/**
 * What the request resolves to: the envelope's `data`, nothing for a bare acknowledgement, and
 * the schema itself for the few answers sent without an envelope (GET /healthz).
 */
export type Answer<O> =
  Json<O> extends { data: infer D } ? D : Json<O> extends { code: number } ? void : Json<O>;

/** The init argument may be left out when nothing in it is required. */
type InitArgs<O> = object extends RequestInit<O> ? [init?: RequestInit<O>] : [init: RequestInit<O>];

/** `template` with each `{name}` replaced by its parameter, URL-encoded. */
export function fillPath(template: string, params: object | undefined): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = (params as Record<string, string | number | boolean> | undefined)?.[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}

interface AnyInit extends RequestOptions {
  path?: object;
  query?: object;
  body?: unknown;
}

function call(method: Method, path: string, typed: unknown): Promise<unknown> {
  // `api` below has checked `typed` against the operation; here it is one of its shapes
  const { path: values, query, body, lan, ...options } = (typed ?? {}) as AnyInit;
  const url = fillPath(path, values);
  const params = (lan === undefined ? query : { ...query, lan }) as
    Record<string, unknown> | undefined;
  const full: RequestConfig = params === undefined ? options : { params, ...options };
  // no config at all when there is none, as the hand-written calls had it
  const config = Object.keys(full).length > 0 ? full : undefined;
  if (method === 'get') return config ? http.get(url, config) : http.get(url);
  if (method === 'delete') return http.request({ ...config, method: 'DELETE', url });
  if (config) return http.post(url, body, config);
  return body === undefined ? http.post(url) : http.post(url, body);
}

/** The path and query of a download (its answer is a file, not an envelope). */
type DownloadInit<O> = Part<'path', PathParams<O>> & Part<'query', QueryParams<O>>;

export const api = {
  get: <P extends PathOf<'get'>>(path: P, ...[init]: InitArgs<Operation<P, 'get'>>) =>
    call('get', path, init) as Promise<Answer<Operation<P, 'get'>>>,
  post: <P extends PathOf<'post'>>(path: P, ...[init]: InitArgs<Operation<P, 'post'>>) =>
    call('post', path, init) as Promise<Answer<Operation<P, 'post'>>>,
  delete: <P extends PathOf<'delete'>>(path: P, ...[init]: InitArgs<Operation<P, 'delete'>>) =>
    call('delete', path, init) as Promise<Answer<Operation<P, 'delete'>>>,
  /** Downloads a file answer (an .xlsx) and hands it to the browser as `fallbackName`. */
  download: <P extends PathOf<'get'>>(
    path: P,
    init: DownloadInit<Operation<P, 'get'>>,
    fallbackName: string,
  ) => {
    // checked against the operation above; here it is one of its shapes
    const { path: params, query } = init as { path?: object; query?: object };
    return downloadFile(fillPath(path, params), query, fallbackName);
  },
};

/** The query parameters of an operation (a list screen builds them before asking). */
export type QueryOf<P extends keyof paths, M extends Method = 'get'> = Exclude<
  QueryParams<Operation<P, M>>,
  undefined
>;

/** The JSON body of an operation. */
export type BodyOf<P extends keyof paths, M extends Method = 'post'> = Exclude<
  RequestBody<Operation<P, M>>,
  undefined
>;

/** What an operation answers (its envelope's `data`). */
export type AnswerOf<P extends keyof paths, M extends Method = 'get'> = Answer<Operation<P, M>>;
