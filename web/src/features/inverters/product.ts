import { queryOptions } from '@tanstack/react-query';
import type { Schemas } from '@/shared/api/schema';
import { api } from '@/shared/api/client';
import { ErrorCode } from '@/shared/http';

/** A product of GET /api/v1/inverter/products (the inverter products of the catalogue). */
export type InverterProduct = Schemas['Product'];

/** The product facts of the inverter detail answer (null when unknown). */
export type ProductOf = Pick<Schemas['InverterDetail'], 'productId' | 'productName'>;

export const inverterProductsQuery = () =>
  queryOptions({
    queryKey: ['inverters', 'products'] as const,
    queryFn: () => api.get('/api/v1/inverter/products', { silent: true }),
    staleTime: 60_000,
  });

/** A product as the picker names it: "Name (part number)". */
export const productLabel = (p: InverterProduct) =>
  p.partNumber ? `${p.name} (${p.partNumber})` : p.name;

/**
 * Files the inverter under a product (null: none). 4 ("productId") when the product does not
 * fit the inverter's type.
 */
export const setInverterProduct = (sn: string, productId: number | null) =>
  api.post('/api/v1/inverter/product', {
    body: { sn, productId },
    handledCodes: [ErrorCode.InvalidParameter],
  });
