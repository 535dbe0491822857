import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp, networkError, type Reply } from '@/test/http';
import { renderScreen } from '@/test/render';
import { aPlant } from '@/test/plant';
import { i18n } from '@/shared/i18n';
import { NameCell } from './NameCell';
import PlantListPage from './PlantListPage';

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
    // the tag is antd's once its code is in (DeferredTag): found anew each time
    const tag = () => screen.getByTestId('customer-filter');
    await waitFor(() => expect(tag()).toHaveTextContent('Customer: ann@example.com'));
    expect(lastListQuery()).toMatchObject({ customerId: 42 });

    fireEvent.click(within(tag()).getByLabelText('Show all plants'));
    await waitFor(() => expect(screen.queryByTestId('customer-filter')).toBeNull());
    expect(view.location()).toBe('/plants');
    await waitFor(() => expect(lastListQuery()).not.toHaveProperty('customerId'));
  });

  it('shows the number when the customer is not among the picker’s', async () => {
    serve(networkError());
    await show('/plants?customerId=42');
    const tag = await screen.findByTestId('customer-filter');
    expect(tag).toHaveTextContent('Customer: 42');
  });

  it('shows no tag and sends no customerId without one in the URL', async () => {
    const api = serve([]);
    await show('/plants');
    await waitFor(() => expect(api.calls('GET /api/v1/plants')).not.toEqual([]));
    expect(api.calls('GET /api/v1/plants').at(-1)?.query).not.toHaveProperty('customerId');
    expect(screen.queryByTestId('customer-filter')).toBeNull();
    expect(api.calls('GET /api/v1/customers/list')).toEqual([]);
  });
});

describe('PlantListPage status', () => {
  it('reads Off for a plant whose fresh inverters are all switched off, as its overview', async () => {
    fakeHttp({
      'GET /api/v1/plants': () =>
        envelope({
          pageNumber: 1,
          pageSize: 10,
          total: 3,
          infos: [
            aPlant({ id: 1, name: 'Roof off', status: 1, switchedOff: true }),
            aPlant({ id: 2, name: 'Roof on', status: 1 }),
            aPlant({ id: 3, name: 'Roof fault', status: 3, switchedOff: true }),
          ],
        }),
      'GET /api/v1/plant/filter': () => envelope({ status: [], type: [] }),
      'GET /api/v1/plant/offers': () => envelope([]),
      'GET /api/v1/customer/offers/received': () => envelope([]),
      'GET /api/v1/agents/list': () => envelope([]),
    });
    await show('/plants');
    const table = await screen.findByTestId('plant-table');
    await waitFor(() => expect(within(table).getAllByTestId('plant-status')).toHaveLength(3));
    const states = within(table)
      .getAllByTestId('plant-status')
      .map((b) => [b.dataset.state, b.textContent]);
    expect(states).toEqual([
      ['off', 'Off'],
      ['normal', 'Normal'],
      ['fault', 'Fault'],
    ]);
  });

  it('shows the same state as the dot beside the name on a phone', async () => {
    const row = aPlant({ name: 'Roof off', status: 1, switchedOff: true });
    await renderScreen(<NameCell row={row} width="phone" t={i18n.t} />);
    const dot = screen.getByTestId('plant-status');
    expect(dot.dataset.state).toBe('off');
    expect(screen.getByRole('img', { name: 'Off' })).toBe(dot);
  });
});
