import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import MockAdapter from 'axios-mock-adapter';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { http } from '@/shared/http';
import type { Product } from './api';
import ProductsPage from './ProductsPage';

const ok = <T,>(data: T): [number, unknown] => [200, { code: 0, msg: 'Success', data }];
const failure = (code: number, msg: string): [number, unknown] => [200, { code, msg, data: null }];
const page = <T,>(infos: T[]) => ({ pageSize: 10, pageNumber: 1, total: infos.length, infos });
const SLOW = { timeout: 10_000 };

const sun: Product = {
  id: 3,
  category: 'inverter',
  name: 'SUN-5K-SG01LP1',
  partNumber: 'SG01LP1-5K',
  manufacturer: 'Deye',
  typeId: 4,
  typeName: '1ph LV hybrid',
  ratedPower: 5000,
  remark: '',
  hardware: [
    { id: 1, version: 'H1.0', remark: '' },
    { id: 2, version: 'H2.0', remark: '' },
  ],
  firmwareCount: 0,
  deviceCount: 0,
  createAt: '2026-05-01T10:00:00.000+00:00',
  updateAt: '2026-05-02T10:00:00.000+00:00',
};

function tree(keys: string[]) {
  return {
    permission: 'system.management',
    type: 0,
    children: keys.map((k) => ({ permission: k, type: k.endsWith('.edit') ? 1 : 0, children: [] })),
  };
}

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={['/management/product']}>
          <ProductsPage />
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

describe('ProductsPage', () => {
  let mock: MockAdapter;
  beforeEach(() => {
    mock = new MockAdapter(http.axios);
  });
  afterEach(() => mock.restore());

  it('lists products with their hardware versions; no buttons without the edit right', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['sys.product.view'])));
    mock.onGet('/api/v1/product/').reply(...ok(page([sun])));
    show();
    expect(await screen.findByTestId('product-row-name', {}, SLOW)).toHaveTextContent(
      'SUN-5K-SG01LP1',
    );
    const table = screen.getByTestId('product-table');
    expect(table).toHaveTextContent('SG01LP1-5K');
    expect(within(table).getByTestId('product-row-hardware')).toHaveTextContent('H1.0H2.0');
    expect(screen.queryByTestId('product-add')).toBeNull();
    expect(screen.queryByTestId('action-edit')).toBeNull();
  });

  it('shows a failure with a retry', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['sys.product.view'])));
    mock
      .onGet('/api/v1/product/')
      .replyOnce(500)
      .onGet('/api/v1/product/')
      .reply(...ok(page([])));
    show();
    const problem = await screen.findByTestId('products-error', {}, SLOW);
    fireEvent.click(within(problem).getByRole('button'));
    expect(await screen.findByText('No products yet', {}, SLOW)).toBeInTheDocument();
  });

  it('adds a product with hardware versions; a taken part number is refused on blur', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['sys.product.view', 'sys.product.edit'])));
    mock.onGet('/api/v1/product/').reply(...ok(page([])));
    mock
      .onGet('/api/v1/product/check')
      .reply((config) =>
        (config.params as { partNumber: string }).partNumber === 'SG01LP1-5K'
          ? failure(4, 'Parameter validation error: partNumber')
          : ok(null),
      );
    mock.onPost('/api/v1/product/').reply(...ok(11));
    show();
    fireEvent.click(await screen.findByTestId('product-add-empty', {}, SLOW));
    fireEvent.change(await screen.findByTestId('product-name'), { target: { value: 'Meter X' } });
    const part = screen.getByTestId('product-part-number');
    fireEvent.change(part, { target: { value: 'SG01LP1-5K' } });
    fireEvent.blur(part);
    expect(
      await screen.findByText('Another product has this part number', {}, SLOW),
    ).toBeInTheDocument();
    fireEvent.change(part, { target: { value: 'MX-1' } });
    fireEvent.blur(part);
    const input = screen.getByTestId('hardware-input');
    fireEvent.change(input, { target: { value: 'V1' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.change(input, { target: { value: 'V2' } });
    fireEvent.click(screen.getByTestId('hardware-add'));
    expect(screen.getAllByTestId('hardware-tag').map((t) => t.textContent)).toEqual(['V1', 'V2']);
    fireEvent.click(screen.getByTestId('product-save'));
    await waitFor(() => expect(mock.history.post.length).toBe(1), SLOW);
    expect(JSON.parse(mock.history.post[0]?.data as string)).toEqual({
      name: 'Meter X',
      partNumber: 'MX-1',
      category: 'inverter',
      manufacturer: '',
      typeId: null,
      ratedPower: null,
      remark: '',
      hardware: ['V1', 'V2'],
    });
  });

  it('says clearly when a product in use cannot be deleted', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['sys.product.view', 'sys.product.edit'])));
    mock.onGet('/api/v1/product/').reply(...ok(page([sun])));
    mock
      .onPost('/api/v1/products/3/delete')
      .reply(...failure(4, 'Parameter validation error: inUse'));
    show();
    fireEvent.click(await screen.findByTestId('action-delete', {}, SLOW));
    fireEvent.click(await screen.findByTestId('product-delete-ok'));
    expect(
      await screen.findByText(
        'Firmware or devices refer to this product: it cannot be deleted',
        {},
        SLOW,
      ),
    ).toBeInTheDocument();
  });
});
