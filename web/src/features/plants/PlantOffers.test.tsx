import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import type { PlantOffer } from './api';
import { PlantOffers } from './PlantOffers';

const get = vi.fn();
const post = vi.fn();
vi.mock('@/shared/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/shared/http')>()),
  http: {
    get: (...args: unknown[]) => get(...args) as unknown,
    post: (...args: unknown[]) => post(...args) as unknown,
  },
}));

const offer: PlantOffer = {
  plantId: 42,
  name: 'Ann roof',
  address: '1 Solar Way',
  totalPower: 8,
  type: 2,
  companyId: 3,
  companyName: 'Acme Solar',
  offeredBy: 'staff@acme.com',
  offeredByName: 'Sam',
  offeredAt: '2026-11-20T10:00:00.000+00:00',
};

function show() {
  return render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <App>
        <PlantOffers />
      </App>
    </QueryClientProvider>,
  );
}

describe('PlantOffers', () => {
  beforeEach(() => {
    get.mockReset();
    post.mockReset();
  });

  it('shows nothing when no plant is offered', async () => {
    get.mockResolvedValue([]);
    const { container } = show();
    await waitFor(() => expect(get).toHaveBeenCalledWith('/api/v1/plant/offers', { silent: true }));
    expect(container.querySelector('[data-testid="plant-offers"]')).toBeNull();
  });

  it('lists an offer with who makes it and accepts it', async () => {
    get.mockResolvedValue([offer]);
    post.mockResolvedValue(null);
    show();
    expect(await screen.findByTestId('offer-name')).toHaveTextContent('Ann roof');
    expect(screen.getByTestId('plant-offers')).toHaveTextContent('Acme Solar');
    expect(screen.getByTestId('plant-offers')).toHaveTextContent('staff@acme.com');
    fireEvent.click(screen.getByTestId('offer-accept'));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/api/v1/plant/42/offer/accept',
        {},
        { handledCodes: [700] },
      ),
    );
    expect(await screen.findByText('“Ann roof” is now yours')).toBeTruthy();
  }, 30_000);
});
