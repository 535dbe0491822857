import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import {
  defaults,
  isFiltered,
  ownParams,
  readQuery,
  writeQuery,
  type ListQuery,
  type Schema,
} from './params';

/** The history state of the URLs this hook writes (a bare URL with it means "no filters"). */
const WRITTEN = { listQuery: true } as const;

/**
 * A list screen's page, page size and filters, kept in the URL's query string: a reload, a
 * shared link and the browser's back button show the list as it was. `schema` must be a
 * module-level constant.
 *
 * Screens kept alive by the layout stay mounted while another route shows: the hook then keeps
 * the query it had, and when the screen is opened again with a bare URL (its menu item) it
 * comes back with that query, as a kept-alive screen always did. A navigation that carries its
 * own state (e.g. back from the create wizard) opens the list as it first opens instead.
 */
export function useListParams<S extends Schema>(schema: S, limit = 10) {
  const location = useLocation();
  const navigate = useNavigate();
  const [home] = useState(location.pathname);
  const active = location.pathname === home;
  const own = ownParams(schema, location.search);
  const [kept, setKept] = useState(own);
  const reopened = active && own === '' && kept !== '' && location.state === null;
  if (active && !reopened && own !== kept) {
    // adjusting state while rendering: the query last shown on this screen
    setKept(own);
  }
  const shown = active && !reopened ? own : kept;
  const query = useMemo(
    () => readQuery(schema, new URLSearchParams(shown), limit),
    [schema, shown, limit],
  );

  useEffect(() => {
    if (!reopened) return;
    const search = new URLSearchParams(location.search);
    for (const [key, value] of new URLSearchParams(kept)) search.set(key, value);
    void navigate({ search: search.toString() }, { replace: true, state: WRITTEN });
  }, [reopened, kept, location.search, navigate]);

  /** Any of the values; the others stay. */
  const set = (patch: Partial<ListQuery<S>>) => {
    if (!active) return;
    const next = { ...query, ...patch };
    const search = writeQuery(schema, next, limit, new URLSearchParams(location.search));
    void navigate({ search: search.toString() }, { replace: true, state: WRITTEN });
  };

  return {
    query,
    filtered: isFiltered(schema, query),
    set,
    /** New filters: the list starts again at page 1. */
    update: (patch: Partial<ListQuery<S>>) => set({ ...patch, page: 1 }),
    setPage: (page: number, pageSize: number = query.limit) =>
      set({ page, limit: pageSize } as Partial<ListQuery<S>>),
    /** The list as it first opens: no filters, page 1, the first page size. */
    reset: () => set(defaults(schema, limit)),
  };
}

/**
 * `useListParams` feeding a TanStack Query: `toOptions` turns the query into the list
 * request's options (a module-level query-options factory).
 */
export function useListQuery<S extends Schema, TQueryFnData, TData, TKey extends QueryKey>(
  schema: S,
  toOptions: (query: ListQuery<S>) => UseQueryOptions<TQueryFnData, Error, TData, TKey>,
  options: { limit?: number; enabled?: boolean } = {},
) {
  const params = useListParams(schema, options.limit);
  const request = toOptions(params.query);
  const list = useQuery(
    options.enabled === undefined ? request : { ...request, enabled: options.enabled },
  );
  return { ...params, list };
}
