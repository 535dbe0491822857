import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import PlantListPage from './PlantListPage';

// jsdom has no ResizeObserver; antd's table measures itself with one
if (!('ResizeObserver' in globalThis)) {
  Object.defineProperty(globalThis, 'ResizeObserver', {
    configurable: true,
    value: class {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    },
  });
}

// a loaded machine renders antd slowly: wait longer than testing-library's 1 s
const SLOW = { timeout: 10_000 };

const get = vi.fn();
vi.mock('@/shared/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/shared/http')>()),
  http: { get: (...args: unknown[]) => get(...args) as unknown },
}));

function answer(customers: unknown) {
  get.mockImplementation((url: string) => {
    if (url === '/api/v1/permission')
      return Promise.resolve({ permission: 'user.producer', type: 0, children: [] });
    if (url === '/api/v1/plants') return Promise.resolve({ total: 0, infos: [] });
    if (url === '/api/v1/plant/filter') return Promise.resolve({ status: [], type: [] });
    if (url === '/api/v1/plant/offers') return Promise.resolve([]);
    if (url === '/api/v1/agents/list') return Promise.resolve([]);
    if (url === '/api/v1/customers/list') return customers;
    return Promise.reject(new Error(`unexpected ${url}`));
  });
}

function Where() {
  return <span data-testid="where">{useLocation().search}</span>;
}

function show(path: string) {
  return render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <MemoryRouter initialEntries={[path]}>
        <App>
          <PlantListPage />
          <Where />
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The params of the newest GET /api/v1/plants. */
function lastListParams(): Record<string, unknown> | undefined {
  const calls = get.mock.calls.filter(([url]) => url === '/api/v1/plants');
  return (calls.at(-1)?.[1] as { params?: Record<string, unknown> } | undefined)?.params;
}

describe('PlantListPage customer filter', () => {
  beforeEach(() => {
    get.mockReset();
  });

  it('sends customerId and names the customer in a closable tag that clears it', async () => {
    answer(Promise.resolve([{ id: 5, userId: 42, account: 'ann@example.com', nickname: 'Ann' }]));
    show('/plants?customerId=42');
    const tag = await screen.findByTestId('customer-filter', undefined, SLOW);
    await waitFor(() => expect(tag).toHaveTextContent('Customer: ann@example.com'), SLOW);
    expect(lastListParams()).toMatchObject({ customerId: 42 });

    fireEvent.click(within(tag).getByLabelText('Show all plants'));
    await waitFor(() => expect(screen.queryByTestId('customer-filter')).toBeNull(), SLOW);
    expect(screen.getByTestId('where')).toHaveTextContent(/^$/);
    await waitFor(() => expect(lastListParams()).not.toHaveProperty('customerId'), SLOW);
  });

  it('shows the number when the customer is not among the picker’s', async () => {
    answer(Promise.reject(new Error('no customer screen')));
    show('/plants?customerId=42');
    const tag = await screen.findByTestId('customer-filter', undefined, SLOW);
    expect(tag).toHaveTextContent('Customer: 42');
  });

  it('shows no tag and sends no customerId without one in the URL', async () => {
    answer(Promise.resolve([]));
    show('/plants');
    await waitFor(() => expect(lastListParams()).toBeDefined(), SLOW);
    expect(lastListParams()).not.toHaveProperty('customerId');
    expect(screen.queryByTestId('customer-filter')).toBeNull();
    expect(get).not.toHaveBeenCalledWith('/api/v1/customers/list', expect.anything());
  });
});
