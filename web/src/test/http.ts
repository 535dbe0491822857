import type { paths } from '@/shared/api/schema.gen';
import {
  http,
  setHttpUi,
  TransportError,
  type HttpResponse,
  type HttpUi,
  type Transport,
} from '@/shared/http';

/**
 * A fake server for tests, installed as the transport of the app's one HTTP client: every
 * module that calls the client reaches it, whatever it imports. Routes are keyed by the API
 * document's own paths (`'GET /api/v1/company/{id}'`), so a route the server does not have, or
 * an answer of the wrong shape, fails `tsc`. A request no route answers rejects, and the test
 * fails after it with the method and path, even when the screen swallowed the rejection.
 */

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';

type RouteOf<P extends keyof paths, M extends Method> = [NonNullable<paths[P][M]>] extends [never]
  ? never
  : `${Uppercase<M>} ${P & string}`;

/** Every `METHOD /path` the API document declares. */
export type Route = { [P in keyof paths]: { [M in Method]: RouteOf<P, M> }[Method] }[keyof paths];

type Operation<R extends Route> = R extends `${infer M} ${infer P}`
  ? P extends keyof paths
    ? NonNullable<paths[P][Lowercase<M> & Method]>
    : never
  : never;

/** The JSON body of an operation's 200 answer (the envelope, for most). */
export type AnswerOf<R extends Route> =
  Operation<R> extends { responses: { 200: { content: { 'application/json': infer B } } } }
    ? B
    : never;

/** The JSON body an operation takes (FormData and the like arrive as they were sent). */
export type BodyOf<R extends Route> = [NonNullable<Operation<R>['requestBody']>] extends [never]
  ? undefined
  : NonNullable<Operation<R>['requestBody']> extends {
        content: { 'application/json': infer B };
      }
    ? B
    : unknown;

export interface FakeRequest<R extends Route = Route> {
  method: string;
  /** The path as requested, without the query. */
  path: string;
  /** The route's `{name}` parts of the path. */
  params: Record<string, string>;
  /** The query: the request's `params` and any query string of the URL (`lan` included). */
  query: Record<string, unknown>;
  body: BodyOf<R>;
  headers: RequestHeaders;
}

/** The request's headers by case-insensitive name; undefined for one not sent. */
export class RequestHeaders {
  constructor(private readonly sent: Record<string, string>) {}
  get(name: string): string | undefined {
    const key = Object.keys(this.sent).find((k) => k.toLowerCase() === name.toLowerCase());
    return key === undefined ? undefined : this.sent[key];
  }
}

const REPLY = Symbol('fake reply');

/** An answer outside the operation's 200 JSON: an error envelope, a status, a file, no network. */
export interface Reply {
  readonly [REPLY]: true;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  network?: boolean;
}

export type Handler<R extends Route> = (
  request: FakeRequest<R>,
) => AnswerOf<R> | Reply | Promise<AnswerOf<R> | Reply>;

export type Routes = { [R in Route]?: Handler<R> };

/** The success envelope around `data` (docs/api-conventions.md). */
export const envelope = <T>(data: T) => ({ code: 0, msg: 'Success', data, success: true });

/** An error envelope (HTTP 200, code non-zero), as the server refuses a request. */
export const failure = (code: number, msg = '', data: unknown = null): Reply => ({
  [REPLY]: true,
  status: 200,
  body: { code, msg, data },
});

/** A bare HTTP answer: `reply(500)`, `reply(200, blob, { 'content-type': 'text/csv' })`. */
export const reply = (status: number, body?: unknown, headers?: Record<string, string>): Reply => ({
  [REPLY]: true,
  status,
  body,
  ...(headers ? { headers } : {}),
});

/** No answer at all: the connection failed. */
export const networkError = (): Reply => ({ [REPLY]: true, status: 0, network: true });

interface Compiled {
  route: Route;
  method: string;
  pattern: RegExp;
  names: string[];
  handler: Handler<Route>;
}

function compile(route: Route, handler: Handler<Route>): Compiled {
  const [method = '', path = ''] = route.split(' ');
  const names: string[] = [];
  const source = path
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (!name) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]+)';
    })
    .join('');
  return { route, method, pattern: new RegExp(`^${source}$`), names, handler };
}

/** The body as the server reads it: JSON goes over the wire as text, FormData as it is. */
function parseBody(data: unknown): unknown {
  if (typeof data === 'string') {
    try {
      return JSON.parse(data) as unknown;
    } catch {
      return data;
    }
  }
  if (data === undefined || data === null || data instanceof FormData || data instanceof Blob)
    return data;
  return JSON.parse(JSON.stringify(data)) as unknown;
}

/** What travels over the wire: dates become strings, `undefined` disappears, no shared objects. */
const wire = (body: unknown): unknown =>
  body === undefined || body instanceof Blob ? body : (JSON.parse(JSON.stringify(body)) as unknown);

export interface FakeHttp {
  /** Adds routes; a route given again replaces the earlier handler. */
  on(routes: Routes): FakeHttp;
  /** The requests a route answered so far, oldest first. */
  calls<R extends Route>(route: R): FakeRequest<R>[];
  /** The error toasts the http client raised (codes nobody handled), oldest first. */
  toasts: string[];
}

let routes: Compiled[] = [];
let received: { route: Route; request: FakeRequest }[] = [];
let unmatched: string[] = [];
let saved: Transport | null = null;
let toasts: string[] = [];
let screenUi: HttpUi | null = null;

/** The screen's own toasts and dialogs (renderScreen's antd App), besides the record. */
export function forwardHttpUi(ui: HttpUi | null): void {
  screenUi = ui;
  setHttpUi(recordingUi);
}

/** Records the client's toasts; no network dialog (a retry is never confirmed), no reload. */
const recordingUi: HttpUi = {
  toast: (message, code) => {
    toasts.push(message);
    screenUi?.toast(message, code);
  },
  networkError: () => Promise.resolve(false),
  signedOut: (reason) => screenUi?.signedOut(reason),
};

const transport: Transport = async (config) => {
  const url = new URL(config.url ?? '', 'http://portal.test');
  const method = (config.method ?? 'get').toUpperCase();
  const query: Record<string, unknown> = Object.fromEntries(url.searchParams);
  Object.assign(query, config.params);
  // a literal path wins over a pattern (`/company/list` over `/company/{id}`)
  const found = routes
    .map((r) => ({ r, match: r.method === method ? r.pattern.exec(url.pathname) : null }))
    .filter((x) => x.match)
    .sort((a, b) => a.r.names.length - b.r.names.length)[0];
  if (!found?.match) {
    const what = `${method} ${url.pathname}`;
    unmatched.push(what);
    throw new Error(`fakeHttp: no route answers ${what}`);
  }
  const { r, match } = found;
  const request: FakeRequest = {
    method,
    path: url.pathname,
    params: Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(match[i + 1] ?? '')])),
    query,
    body: parseBody(config.data) as BodyOf<Route>,
    headers: new RequestHeaders(config.headers ?? {}),
  };
  received.push({ route: r.route, request });
  const answer = (await r.handler(request)) as unknown;
  const out: Reply =
    typeof answer === 'object' && answer !== null && REPLY in answer
      ? (answer as Reply)
      : reply(200, answer);
  if (out.network) throw new TransportError('Network Error');
  const response: HttpResponse = {
    data: wire(out.body),
    status: out.status,
    headers: new Headers(out.headers ?? { 'content-type': 'application/json' }),
    config,
  };
  return response;
};

/**
 * Installs the fake server for the current test (routes added to any already installed) and
 * returns it; it is removed after the test.
 */
export function fakeHttp(initial: Routes = {}): FakeHttp {
  if (saved === null) {
    saved = http.transport;
    http.transport = transport;
    setHttpUi(recordingUi);
  }
  const fake: FakeHttp = {
    on(more) {
      const added = Object.entries(more).map(([route, handler]) =>
        compile(route as Route, handler as Handler<Route>),
      );
      const replaced = new Set(added.map((a) => a.route));
      routes = [...added, ...routes.filter((r) => !replaced.has(r.route))];
      return fake;
    },
    calls: <R extends Route>(route: R) =>
      received.filter((c) => c.route === route).map((c) => c.request as FakeRequest<R>),
    get toasts() {
      return toasts;
    },
  };
  return fake.on(initial);
}

/** After each test (src/test/setup.ts): the real transport back, and no request left unanswered. */
export function resetFakeHttp(): void {
  const missed = unmatched;
  if (saved !== null) http.transport = saved;
  saved = null;
  routes = [];
  received = [];
  unmatched = [];
  toasts = [];
  if (missed.length) {
    throw new Error(`fakeHttp: requests no route answered:\n  ${missed.join('\n  ')}`);
  }
}
