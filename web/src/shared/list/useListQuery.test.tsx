import { queryOptions } from '@tanstack/react-query';
import { act, waitFor } from '@testing-library/react';
import { useLocation, useNavigate } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderScreenHook } from '@/test/render';
import { int, text, type ListQuery } from './params';
import { useListParams, useListQuery } from './useListQuery';

const FILTERS = { status: int(-1), sn: text() };

/** The hook with the router's location and navigation beside it. */
function useListHere() {
  return { list: useListParams(FILTERS), location: useLocation(), navigate: useNavigate() };
}

describe('useListParams', () => {
  it('reads page, page size and filters from the URL and writes changes back', async () => {
    const { result } = await renderScreenHook(useListHere, {
      route: '/device/meter?status=2&sn=M1&page=3&limit=20&tab=x',
    });
    expect(result.current.list.query).toEqual({ status: 2, sn: 'M1', page: 3, limit: 20 });
    expect(result.current.list.filtered).toBe(true);

    act(() => result.current.list.setPage(4));
    expect(new URLSearchParams(result.current.location.search).get('page')).toBe('4');
    expect(result.current.list.query.page).toBe(4);

    act(() => result.current.list.reset());
    // the first page size too, so a bare URL; parameters that are not the list's stay
    expect(result.current.location.search).toBe('?tab=x');
    expect(result.current.list.query).toEqual({ status: -1, sn: '', page: 1, limit: 10 });
    expect(result.current.list.filtered).toBe(false);
  });

  it('starts again at page 1 when a filter changes', async () => {
    const { result } = await renderScreenHook(useListHere, {
      route: '/device/meter?status=2&page=3',
    });
    act(() => result.current.list.update({ sn: 'M9' }));
    expect(result.current.list.query).toEqual({ status: 2, sn: 'M9', page: 1, limit: 10 });
    const search = new URLSearchParams(result.current.location.search);
    expect(search.has('page')).toBe(false);
    expect(search.get('sn')).toBe('M9');
  });

  it('comes back as it was when its screen is opened again with a bare URL', async () => {
    const { result } = await renderScreenHook(useListHere, { route: '/plants?status=3&page=2' });
    // another route shows (the screen stays mounted, kept alive): its own query stays
    act(() => void result.current.navigate('/plants/edit/5?tab=gateways'));
    expect(result.current.list.query).toMatchObject({ status: 3, page: 2 });

    // the menu opens it again: the query it had, in the URL too
    act(() => void result.current.navigate('/plants'));
    expect(result.current.list.query).toMatchObject({ status: 3, page: 2 });
    await waitFor(() => expect(result.current.location.search).toBe('?status=3&page=2'));

    // a navigation with its own state (the wizard's new plant) opens it as it first opens
    act(() => void result.current.navigate('/plants', { state: { created: 9 } }));
    expect(result.current.list.query).toEqual({ status: -1, sn: '', page: 1, limit: 10 });
  });
});

describe('useListQuery', () => {
  it('asks the list request for the query in the URL', async () => {
    const fetchPage = vi.fn((q: ListQuery<typeof FILTERS>) => Promise.resolve([q.status, q.page]));
    const listQuery = (q: ListQuery<typeof FILTERS>) =>
      queryOptions({ queryKey: ['test', q], queryFn: () => fetchPage(q) });
    const { result } = await renderScreenHook(
      () => useListQuery(FILTERS, listQuery, { limit: 20 }),
      { route: '/list?status=1&page=2' },
    );
    await waitFor(() => expect(result.current.list.data).toEqual([1, 2]));
    act(() => result.current.update({ status: 0 }));
    await waitFor(() => expect(result.current.list.data).toEqual([0, 1]));
    expect(fetchPage).toHaveBeenLastCalledWith({ status: 0, sn: '', page: 1, limit: 20 });
  });
});
