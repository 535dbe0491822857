/**
 * List filters kept in the URL's query string: each filter names its value when the URL has
 * none (left out of the URL) and how it reads and writes as text. Page and page size are
 * always there (`page`, `limit`).
 */
export interface Param<T> {
  fallback: T;
  /** The value of the URL's text; undefined when the text is not a valid value. */
  parse(raw: string): T | undefined;
  format(value: T): string;
}

const INTEGER = /^-?\d{1,15}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Free text (an SN, a name); empty is "any". */
export const text = (fallback = ''): Param<string> => ({
  fallback,
  parse: (raw) => raw,
  format: (value) => value,
});

/** A whole number (a status code, a type; the list's own "any" as fallback, e.g. -1). */
export const int = (fallback: number): Param<number> => ({
  fallback,
  parse: (raw) => (INTEGER.test(raw) ? Number(raw) : undefined),
  format: String,
});

/** An id that may be unset (a plant filter). */
export const optionalId = (): Param<number | null> => ({
  fallback: null,
  parse: (raw) => (INTEGER.test(raw) ? Number(raw) : undefined),
  format: (value) => (value === null ? '' : String(value)),
});

/** One of a fixed set of words (a sort field, a severity). */
export const oneOf = <T extends string>(values: readonly T[], fallback: T): Param<T> => ({
  fallback,
  parse: (raw) => values.find((v) => v === raw),
  format: (value) => value,
});

/** A day, `YYYY-MM-DD`; empty is "any". */
export const day = (): Param<string> => ({
  fallback: '',
  parse: (raw) => (DAY.test(raw) ? raw : undefined),
  format: (value) => value,
});

/** The filters of one list screen, by query-string name. */
export type Schema = Record<string, Param<unknown>>;

export type Filters<S extends Schema> = { [K in keyof S]: S[K] extends Param<infer T> ? T : never };

/** What a list asks for: its filters, the page (from 1) and the page size. */
export type ListQuery<S extends Schema> = Filters<S> & { page: number; limit: number };

const PAGE = 'page';
const LIMIT = 'limit';
const MAX_LIMIT = 100;

/** The first page with every filter at its fallback. */
export function defaults<S extends Schema>(schema: S, limit: number): ListQuery<S> {
  const filters = Object.fromEntries(Object.entries(schema).map(([k, p]) => [k, p.fallback]));
  return { ...filters, page: 1, limit } as ListQuery<S>;
}

function whole(raw: string | null, min: number, max: number): number | undefined {
  if (raw === null || !INTEGER.test(raw)) return undefined;
  const n = Number(raw);
  return n >= min && n <= max ? n : undefined;
}

/** The query a URL's parameters ask for; missing or invalid values take their fallback. */
export function readQuery<S extends Schema>(
  schema: S,
  search: URLSearchParams,
  limit: number,
): ListQuery<S> {
  const query: Record<string, unknown> = {
    page: whole(search.get(PAGE), 1, Number.MAX_SAFE_INTEGER) ?? 1,
    limit: whole(search.get(LIMIT), 1, MAX_LIMIT) ?? limit,
  };
  for (const [key, param] of Object.entries(schema)) {
    const raw = search.get(key);
    const value = raw === null ? undefined : param.parse(raw);
    query[key] = value === undefined ? param.fallback : value;
  }
  return query as ListQuery<S>;
}

/**
 * The URL parameters of a query: `base` (parameters that are not the list's stay) with the
 * list's values that differ from their fallback, so a list as it first opens has a bare URL.
 */
export function writeQuery<S extends Schema>(
  schema: S,
  query: ListQuery<S>,
  limit: number,
  base: URLSearchParams,
): URLSearchParams {
  const out = new URLSearchParams(base);
  const put = (key: string, value: string | null) => {
    if (value === null) out.delete(key);
    else out.set(key, value);
  };
  for (const [key, param] of Object.entries(schema)) {
    const value = (query as Record<string, unknown>)[key];
    put(key, value === param.fallback ? null : param.format(value));
  }
  put(PAGE, query.page > 1 ? String(query.page) : null);
  put(LIMIT, query.limit !== limit ? String(query.limit) : null);
  return out;
}

/** Only the list's own parameters of a query string, in a fixed order (to compare them). */
export function ownParams(schema: Schema, search: string): string {
  const all = new URLSearchParams(search);
  const own = new URLSearchParams();
  for (const key of [...Object.keys(schema), PAGE, LIMIT]) {
    const value = all.get(key);
    if (value !== null) own.set(key, value);
  }
  return own.toString();
}

/** Whether any filter differs from its fallback (an empty list then says "nothing matches"). */
export function isFiltered<S extends Schema>(schema: S, query: ListQuery<S>): boolean {
  const values = query as Record<string, unknown>;
  return Object.entries(schema).some(([key, param]) => values[key] !== param.fallback);
}
