import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { PlantOffer } from './api';
import { PlantOffers } from './PlantOffers';

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

const serve = (offers: PlantOffer[]) =>
  fakeHttp({
    'GET /api/v1/plant/offers': () => envelope(offers),
    'POST /api/v1/plant/{id}/offer/accept': () => envelope(null),
  });

describe('PlantOffers', () => {
  it('shows nothing when no plant is offered', async () => {
    const api = serve([]);
    const { container } = await renderScreen(<PlantOffers />);
    await waitFor(() => expect(api.calls('GET /api/v1/plant/offers')).toHaveLength(1));
    expect(container.querySelector('[data-testid="plant-offers"]')).toBeNull();
  });

  it('lists an offer with who makes it and accepts it', async () => {
    const api = serve([offer]);
    await renderScreen(<PlantOffers />);
    expect(await screen.findByTestId('offer-name')).toHaveTextContent('Ann roof');
    expect(screen.getByTestId('plant-offers')).toHaveTextContent('Acme Solar');
    expect(screen.getByTestId('plant-offers')).toHaveTextContent('staff@acme.com');
    fireEvent.click(screen.getByTestId('offer-accept'));
    await waitFor(() =>
      expect(api.calls('POST /api/v1/plant/{id}/offer/accept')).toMatchObject([
        { params: { id: '42' } },
      ]),
    );
    expect(await screen.findByText('“Ann roof” is now yours')).toBeTruthy();
  });
});
