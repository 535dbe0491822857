import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import type { SharesOverview } from './api';
import SharesPage from './SharesPage';

const get = vi.fn();
const post = vi.fn();
vi.mock('@/shared/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/shared/http')>()),
  http: {
    get: (...args: unknown[]) => get(...args) as unknown,
    post: (...args: unknown[]) => post(...args) as unknown,
  },
}));

const empty: SharesOverview = {
  given: [],
  received: [],
  companies: [],
  customerOffers: [],
  agents: [],
  principal: null,
  agentOffersMade: [],
  agentOffersReceived: [],
  mayEditAgents: false,
};

const withOffer: SharesOverview = {
  ...empty,
  customerOffers: [
    {
      id: 7,
      companyId: 3,
      companyName: 'Acme Solar',
      userId: 9,
      account: 'ann@example.com',
      nickname: 'Ann',
      message: 'Yearly checks',
      status: 'pending',
      createAt: '2026-11-20T10:00:00.000+00:00',
      rights: [
        { key: 'station.view', name: 'Plants' },
        { key: 'gateway.key', name: 'Gateway key' },
      ],
    },
  ],
  given: [
    {
      plantId: 42,
      plantName: 'Ann roof',
      plantType: 1,
      userId: 11,
      account: 'max@example.com',
      nickname: 'Max',
      role: 'maintainer',
      createAt: '2026-11-01T10:00:00.000+00:00',
    },
  ],
};

/** Answers the shares read with `data`, the permission tree with nothing. */
function answer(data: SharesOverview) {
  get.mockImplementation((url: string) =>
    Promise.resolve(
      url === '/api/v1/shares'
        ? data
        : { id: 0, name: '', permission: 'root', type: 0, children: [] },
    ),
  );
}

function show() {
  return render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <MemoryRouter>
        <App>
          <SharesPage />
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('SharesPage', () => {
  beforeEach(() => {
    get.mockReset();
    post.mockReset();
  });

  it('says so when nothing is shared either way', async () => {
    answer(empty);
    show();
    expect(await screen.findByTestId('serving-companies')).toHaveTextContent(
      'No company sees your plants',
    );
    expect(screen.getByTestId('shares-given')).toHaveTextContent('You share no plant');
    expect(screen.getByTestId('shares-received')).toHaveTextContent(
      'Nobody shares a plant with you',
    );
    expect(screen.queryByTestId('customer-offers')).toBeNull();
  });

  it('shows a request with the rights it grants and accepts it', async () => {
    answer(withOffer);
    post.mockResolvedValue(null);
    show();
    const offer = await screen.findByTestId('customer-offer');
    expect(offer).toHaveTextContent('Acme Solar');
    expect(offer).toHaveTextContent('Yearly checks');
    expect(within(offer).getByTestId('rights')).toHaveTextContent('Gateway key');
    expect(screen.getByTestId('shares-given')).toHaveTextContent('max@example.com');
    fireEvent.click(within(offer).getByTestId('customer-offer-accept'));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/api/v1/customer/offer/7/accept',
        {},
        { handledCodes: [4] },
      ),
    );
  }, 30_000);

  it('offers a retry when the read fails', async () => {
    get.mockImplementation((url: string) =>
      url === '/api/v1/shares' ? Promise.reject(new Error('down')) : Promise.resolve(null),
    );
    show();
    expect(await screen.findByTestId('shares-error')).toHaveTextContent(
      'Shared management could not be loaded',
    );
  });
});
