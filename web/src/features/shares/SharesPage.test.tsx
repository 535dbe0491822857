import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp, networkError } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { SharesOverview } from './api';
import SharesPage from './SharesPage';

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

/** Answers the shares read with `data`; the signed-in user holds no permission. */
const answer = (data: SharesOverview) =>
  fakeHttp({
    'GET /api/v1/shares': () => envelope(data),
    'POST /api/v1/customer/offer/{id}/accept': () => envelope(null),
  });

const show = () => renderScreen(<SharesPage />, { permissions: [] });

describe('SharesPage', () => {
  it('says so when nothing is shared either way', async () => {
    answer(empty);
    await show();
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
    const api = answer(withOffer);
    await show();
    const offer = await screen.findByTestId('customer-offer');
    expect(offer).toHaveTextContent('Acme Solar');
    expect(offer).toHaveTextContent('Yearly checks');
    expect(within(offer).getByTestId('rights')).toHaveTextContent('Gateway key');
    expect(screen.getByTestId('shares-given')).toHaveTextContent('max@example.com');
    fireEvent.click(within(offer).getByTestId('customer-offer-accept'));
    await waitFor(() =>
      expect(api.calls('POST /api/v1/customer/offer/{id}/accept')).toMatchObject([
        { params: { id: '7' } },
      ]),
    );
  });

  it('offers a retry when the read fails', async () => {
    fakeHttp({ 'GET /api/v1/shares': () => networkError() });
    await show();
    expect(await screen.findByTestId('shares-error')).toHaveTextContent(
      'Shared management could not be loaded',
    );
  });
});
