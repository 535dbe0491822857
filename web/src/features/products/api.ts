import { api } from '@/shared/api/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ErrorCode, isApiError } from '@/shared/http';
import type { Schemas } from '@/shared/api/schema';
import { oneOf, text, type ListQuery } from '@/shared/list/params';

/** What a product is (the catalogue's categories). */
export type Category = Schemas['Product']['category'];
export const CATEGORIES = [
  'inverter',
  'gateway',
  'battery',
  'meter',
] as const satisfies readonly Category[];

/** A hardware version of a product. */
export type Hardware = Schemas['ProductHardware'];

/** An item of GET /api/v1/product/ (and GET /product/{id}). */
export type Product = Schemas['Product'];

/** The body of POST /product/ (create) and POST /products/{id} (edit). */
export interface ProductBody {
  name: string;
  partNumber: string;
  category: Category;
  manufacturer: string;
  typeId: number | null;
  ratedPower: number | null;
  remark: string;
  /** The hardware versions; an edit replaces the list. */
  hardware: string[];
}

/** A node of GET /api/v1/firmware/inverterTypes: primary titles with their secondary labels. */
export type InverterTypeNode = Schemas['InverterTypeNode'];

export const productKeys = {
  all: ['products'] as const,
  list: (params: Readonly<Record<string, string | number>>) =>
    ['products', 'list', params] as const,
  labels: ['products', 'labels'] as const,
};

/** The list's search and category, kept in the URL ('' = every category). */
export const PRODUCT_FILTERS = {
  keyword: text(),
  category: oneOf<Category | ''>(['', ...CATEGORIES], ''),
};

export type ProductQuery = ListQuery<typeof PRODUCT_FILTERS>;

export function productParams(q: ProductQuery): Record<string, string | number> {
  const params: Record<string, string | number> = {
    page: Math.max(1, Math.trunc(q.page)),
    limit: Math.min(100, Math.max(1, Math.trunc(q.limit))),
  };
  const keyword = q.keyword.trim();
  if (keyword) params.keyword = keyword;
  if (q.category) params.category = q.category;
  return params;
}

// The document has `category` as text; the server sends only the words of CATEGORIES, so the
// list is read with it narrowed (a gap in the document: no enum there).
export const productListQuery = (q: ProductQuery) =>
  queryOptions({
    queryKey: productKeys.list(productParams(q)),
    // the document has `category` as text; the server sends only the words of CATEGORIES
    queryFn: () => api.get('/api/v1/product/', { query: productParams(q), silent: true }),
    placeholderData: keepPreviousData,
  });

/** A secondary label as the product form offers it: "Primary / Secondary". */
export interface LabelOption {
  value: number;
  label: string;
}

/** The secondary labels of the inverter-type tree, in the tree's order, named with their title. */
export function secondaryLabels(tree: readonly InverterTypeNode[]): LabelOption[] {
  return tree.flatMap((primary) =>
    primary.children.map((s) => ({ value: s.id, label: `${primary.name} / ${s.name}` })),
  );
}

export const inverterLabelsQuery = () =>
  queryOptions({
    queryKey: productKeys.labels,
    queryFn: () => api.get('/api/v1/firmware/inverterTypes', { silent: true }),
    select: secondaryLabels,
    staleTime: 60_000,
  });

/**
 * Whether another product (than `id`) has the part number: GET /product/check answers 4
 * ("partNumber") when one has; null when there is no answer (the save decides then).
 */
export async function partNumberTaken(partNumber: string, id?: number): Promise<boolean | null> {
  const params: Record<string, string | number> = { partNumber: partNumber.trim() };
  if (id !== undefined) params.id = id;
  try {
    await api.get('/api/v1/product/check', {
      query: params,
      handledCodes: [ErrorCode.InvalidParameter],
      silent: true,
    });
    return false;
  } catch (e) {
    return isApiError(e, ErrorCode.InvalidParameter) ? true : null;
  }
}

/** The form's values as the server takes them: trimmed, empty hardware versions left out. */
export function productBody(v: ProductBody): ProductBody {
  const hardware = [...new Set(v.hardware.map((h) => h.trim()).filter(Boolean))];
  return {
    name: v.name.trim(),
    partNumber: v.partNumber.trim(),
    category: v.category,
    manufacturer: v.manufacturer.trim(),
    // only inverters are filed under an inverter-type label
    typeId: v.category === 'inverter' ? (v.typeId ?? null) : null,
    ratedPower: v.ratedPower ?? null,
    remark: v.remark.trim(),
    hardware,
  };
}

export const addProduct = (body: ProductBody) =>
  api.post('/api/v1/product/', {
    body: body satisfies Schemas['ProductRequest'],
    handledCodes: [ErrorCode.InvalidParameter],
  });

export const editProduct = (id: number, body: ProductBody) =>
  api.post('/api/v1/products/{id}', {
    path: { id },
    body: body satisfies Schemas['ProductRequest'],
    handledCodes: [ErrorCode.InvalidParameter],
  });

export const deleteProduct = (id: number) =>
  api.post('/api/v1/products/{id}/delete', {
    path: { id },
    body: undefined,
    handledCodes: [ErrorCode.InvalidParameter],
  });

/** The product form's fields a refusal (4) can name. */
export type ProductField =
  'name' | 'partNumber' | 'manufacturer' | 'typeId' | 'ratedPower' | 'remark' | 'hardware';

const FIELDS: readonly ProductField[] = [
  'name',
  'partNumber',
  'manufacturer',
  'typeId',
  'ratedPower',
  'remark',
  'hardware',
];

/** What a parameter refusal (4) names ("Parameter validation error: partNumber"), else null. */
export function refusalDetail(error: unknown): string | null {
  if (!isApiError(error, ErrorCode.InvalidParameter)) return null;
  return /:\s*([A-Za-z][\w.]*)\s*$/.exec(error.message)?.[1] ?? null;
}

/**
 * Where a refused save points: a taken part number, a hardware version firmware still names,
 * or the field a refusal names. null when it points nowhere (the message is shown instead).
 */
export function productRefusal(error: unknown): { field: ProductField; key: string } | null {
  const detail = refusalDetail(error);
  if (detail === 'partNumber') return { field: 'partNumber', key: 'products.refusal.partNumber' };
  if (detail === 'hardware') return { field: 'hardware', key: 'products.refusal.hardware' };
  const known = FIELDS.find((f) => f === detail);
  return known ? { field: known, key: 'products.refusal.invalid' } : null;
}
