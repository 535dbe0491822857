import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp, networkError, type Reply } from '@/test/http';
import { renderScreen } from '@/test/render';
import PlantListPage from './PlantListPage';

// a loaded machine renders antd slowly: wait longer than testing-library's 1 s
const SLOW = { timeout: 10_000 };

const ann = { id: 5, userId: 42, account: 'ann@example.com', nickname: 'Ann' };

function serve(customers: (typeof ann)[] | Reply) {
  return fakeHttp({
    'GET /api/v1/plants': () => envelope({ pageNumber: 1, pageSize: 10, total: 0, infos: [] }),
    'GET /api/v1/plant/filter': () => envelope({ status: [], type: [] }),
    'GET /api/v1/plant/offers': () => envelope([]),
    'GET /api/v1/customer/offers/received': () => envelope([]),
    'GET /api/v1/agents/list': () => envelope([]),
    'GET /api/v1/customers/list': () =>
      Array.isArray(customers) ? envelope(customers) : customers,
  });
}

const show = (route: string) =>
  renderScreen(<PlantListPage />, {
    route,
    permissions: { permission: 'user.producer', type: 0, children: [] },
  });

describe('PlantListPage customer filter', () => {
  it('sends customerId and names the customer in a closable tag that clears it', async () => {
    const api = serve([ann]);
    const lastListQuery = () => api.calls('GET /api/v1/plants').at(-1)?.query;
    const view = await show('/plants?customerId=42');
    const tag = await screen.findByTestId('customer-filter', undefined, SLOW);
    await waitFor(() => expect(tag).toHaveTextContent('Customer: ann@example.com'), SLOW);
    expect(lastListQuery()).toMatchObject({ customerId: 42 });

    fireEvent.click(within(tag).getByLabelText('Show all plants'));
    await waitFor(() => expect(screen.queryByTestId('customer-filter')).toBeNull(), SLOW);
    expect(view.location()).toBe('/plants');
    await waitFor(() => expect(lastListQuery()).not.toHaveProperty('customerId'), SLOW);
  });

  it('shows the number when the customer is not among the picker’s', async () => {
    serve(networkError());
    await show('/plants?customerId=42');
    const tag = await screen.findByTestId('customer-filter', undefined, SLOW);
    expect(tag).toHaveTextContent('Customer: 42');
  });

  it('shows no tag and sends no customerId without one in the URL', async () => {
    const api = serve([]);
    await show('/plants');
    await waitFor(() => expect(api.calls('GET /api/v1/plants')).not.toEqual([]), SLOW);
    expect(api.calls('GET /api/v1/plants').at(-1)?.query).not.toHaveProperty('customerId');
    expect(screen.queryByTestId('customer-filter')).toBeNull();
    expect(api.calls('GET /api/v1/customers/list')).toEqual([]);
  });
});
