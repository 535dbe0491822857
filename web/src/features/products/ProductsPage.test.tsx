import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, failure, fakeHttp, reply } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { Product } from './api';
import ProductsPage from './ProductsPage';

const page = <T,>(infos: T[]) => ({ pageSize: 10, pageNumber: 1, total: infos.length, infos });

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

const show = (keys: string[]) =>
  renderScreen(<ProductsPage />, { route: '/management/product', permissions: tree(keys) });

describe('ProductsPage', () => {
  it('lists products with their hardware versions; no buttons without the edit right', async () => {
    fakeHttp({ 'GET /api/v1/product/': () => envelope(page([sun])) });
    await show(['sys.product.view']);
    expect(await screen.findByTestId('product-row-name')).toHaveTextContent('SUN-5K-SG01LP1');
    const table = screen.getByTestId('product-table');
    expect(table).toHaveTextContent('SG01LP1-5K');
    expect(within(table).getByTestId('product-row-hardware')).toHaveTextContent('H1.0H2.0');
    expect(screen.queryByTestId('product-add')).toBeNull();
    expect(screen.queryByTestId('action-edit')).toBeNull();
  });

  it('shows a failure with a retry', async () => {
    let lists = 0;
    fakeHttp({
      'GET /api/v1/product/': () => (lists++ === 0 ? reply(500) : envelope(page<Product>([]))),
    });
    await show(['sys.product.view']);
    const problem = await screen.findByTestId('products-error');
    fireEvent.click(within(problem).getByRole('button'));
    expect(await screen.findByText('No products yet')).toBeInTheDocument();
  });

  it('adds a product with hardware versions; a taken part number is refused on blur', async () => {
    const api = fakeHttp({
      'GET /api/v1/product/': () => envelope(page<Product>([])),
      'GET /api/v1/product/check': ({ query }) =>
        query.partNumber === 'SG01LP1-5K'
          ? failure(4, 'Parameter validation error: partNumber')
          : envelope(null),
      'POST /api/v1/product/': () => envelope(11),
    });
    await show(['sys.product.view', 'sys.product.edit']);
    fireEvent.click(await screen.findByTestId('product-add-empty'));
    fireEvent.change(await screen.findByTestId('product-name'), { target: { value: 'Meter X' } });
    const part = screen.getByTestId('product-part-number');
    fireEvent.change(part, { target: { value: 'SG01LP1-5K' } });
    fireEvent.blur(part);
    expect(await screen.findByText('Another product has this part number')).toBeInTheDocument();
    fireEvent.change(part, { target: { value: 'MX-1' } });
    fireEvent.blur(part);
    const input = screen.getByTestId('hardware-input');
    fireEvent.change(input, { target: { value: 'V1' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.change(input, { target: { value: 'V2' } });
    fireEvent.click(screen.getByTestId('hardware-add'));
    expect(screen.getAllByTestId('hardware-tag').map((t) => t.textContent)).toEqual(['V1', 'V2']);
    fireEvent.click(screen.getByTestId('product-save'));
    await waitFor(() => expect(api.calls('POST /api/v1/product/')).toHaveLength(1));
    expect(api.calls('POST /api/v1/product/')[0]?.body).toEqual({
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
    const api = fakeHttp({
      'GET /api/v1/product/': () => envelope(page([sun])),
      'POST /api/v1/products/{id}/delete': () => failure(4, 'Parameter validation error: inUse'),
    });
    await show(['sys.product.view', 'sys.product.edit']);
    fireEvent.click(await screen.findByTestId('action-delete'));
    fireEvent.click(await screen.findByTestId('product-delete-ok'));
    expect(
      await screen.findByText('Firmware or devices refer to this product: it cannot be deleted'),
    ).toBeInTheDocument();
    expect(api.calls('POST /api/v1/products/{id}/delete')[0]?.params).toEqual({ id: '3' });
  });
});
