import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import MockAdapter from 'axios-mock-adapter';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { http } from '@/shared/http';
import { ProductField } from './ProductField';
import { afterGuard } from '@/test/guard';

const ok = <T,>(data: T): [number, unknown] => [200, { code: 0, msg: 'Success', data }];
const failure = (code: number, msg: string): [number, unknown] => [200, { code, msg, data: null }];
const SLOW = { timeout: 10_000 };

const PRODUCTS = [
  {
    id: 3,
    name: 'SUN-5K',
    partNumber: 'SG01LP1-5K',
    manufacturer: 'Deye',
    typeName: '',
    ratedPower: 5000,
  },
  {
    id: 4,
    name: 'SUN-8K',
    partNumber: 'SG04LP3-8K',
    manufacturer: 'Deye',
    typeName: '',
    ratedPower: 8000,
  },
];

function show(mayEdit: boolean, productName: string | null = 'SUN-5K') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <ProductField sn="2306012345" product={{ productId: 3, productName }} mayEdit={mayEdit} />
      </App>
    </QueryClientProvider>,
  );
}

describe('inverter product', () => {
  let mock: MockAdapter;
  beforeEach(() => {
    mock = new MockAdapter(http.axios);
    mock.onGet('/api/v1/inverter/products').reply(...ok(PRODUCTS));
  });
  afterEach(() => mock.restore());

  it('shows the product; no way to change it without inverter.setting', () => {
    show(false);
    expect(screen.getByTestId('info-product')).toHaveTextContent('SUN-5K');
    expect(screen.queryByTestId('product-pick')).toBeNull();
  });

  it('shows -- when the product is unknown', () => {
    show(false, null);
    expect(screen.getByTestId('info-product')).toHaveTextContent('--');
  });

  it('sends the picked product, and says when it does not fit', async () => {
    mock
      .onPost('/api/v1/inverter/product')
      .replyOnce(...failure(4, 'Parameter validation error: productId'))
      .onPost('/api/v1/inverter/product')
      .reply(...ok(null));
    show(true);
    fireEvent.click(screen.getByTestId('product-pick'));
    await screen.findByTestId('product-pick-select');
    fireEvent.click(screen.getByTestId('product-pick-save'));
    expect(
      await screen.findByText('This product does not fit the inverter’s type', {}, SLOW),
    ).toBeInTheDocument();
    expect(JSON.parse(mock.history.post[0]?.data as string)).toEqual({
      sn: '2306012345',
      productId: 3,
    });
    await afterGuard(screen.getByTestId('product-pick-save'));
    fireEvent.click(screen.getByTestId('product-pick-save'));
    await waitFor(() => expect(mock.history.post.length).toBe(2), SLOW);
  });
});
