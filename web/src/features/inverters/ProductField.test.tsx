import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { afterGuard } from '@/test/guard';
import { envelope, failure, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import { ProductField } from './ProductField';

const product = (id: number, name: string, partNumber: string, ratedPower: number) => ({
  id,
  name,
  partNumber,
  manufacturer: 'Deye',
  category: 'inverter' as const,
  typeId: null,
  typeName: '',
  ratedPower,
  remark: '',
  hardware: [],
  deviceCount: 0,
  firmwareCount: 0,
  createAt: '2026-05-01T10:00:00.000+00:00',
  updateAt: '2026-05-01T10:00:00.000+00:00',
});

const PRODUCTS = [
  product(3, 'SUN-5K', 'SG01LP1-5K', 5000),
  product(4, 'SUN-8K', 'SG04LP3-8K', 8000),
];

const show = (mayEdit: boolean, productName: string | null = 'SUN-5K') =>
  renderScreen(
    <ProductField sn="2306012345" product={{ productId: 3, productName }} mayEdit={mayEdit} />,
  );

/** The product list; the first save of a product is refused (it does not fit), the next taken. */
function serve() {
  let saves = 0;
  return fakeHttp({
    'GET /api/v1/inverter/products': () => envelope(PRODUCTS),
    'POST /api/v1/inverter/product': () =>
      saves++ === 0 ? failure(4, 'Parameter validation error: productId') : envelope(null),
  });
}

describe('inverter product', () => {
  it('shows the product; no way to change it without inverter.setting', async () => {
    serve();
    await show(false);
    expect(screen.getByTestId('info-product')).toHaveTextContent('SUN-5K');
    expect(screen.queryByRole('button', { name: 'Choose the product' })).toBeNull();
  });

  it('shows -- when the product is unknown', async () => {
    serve();
    await show(false, null);
    expect(screen.getByTestId('info-product')).toHaveTextContent('--');
  });

  it('sends the picked product, and says when it does not fit', async () => {
    const api = serve();
    await show(true);
    fireEvent.click(screen.getByRole('button', { name: 'Choose the product' }));
    await screen.findByTestId('product-pick-select');
    fireEvent.click(screen.getByTestId('product-pick-save'));
    expect(
      await screen.findByText('This product does not fit the inverter’s type'),
    ).toBeInTheDocument();
    expect(api.calls('POST /api/v1/inverter/product')[0]?.body).toEqual({
      sn: '2306012345',
      productId: 3,
    });
    await afterGuard(screen.getByTestId('product-pick-save'));
    fireEvent.click(screen.getByTestId('product-pick-save'));
    await waitFor(() => expect(api.calls('POST /api/v1/inverter/product')).toHaveLength(2));
  });
});
