import { api, type PathOf, type QueryOf } from '@/shared/api/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ErrorCode, isApiError } from '@/shared/http';
import type { Schemas } from '@/shared/api/schema';
import { oneOf, optionalId, text, type ListQuery } from '@/shared/list/params';

/** Which firmware a screen manages: inverter firmware (filed under a label) or gateway software. */
export type FirmwareTarget = Schemas['FirmwareTarget'];

/** A node of the inverter-type tree: a primary title (with labels) or a secondary label. */
export type InverterTypeNode = Schemas['InverterTypeNode'];

/** A firmware file of the catalogue (GET /firmware/page, /firmware/gateway/page). */
export type FirmwareItem = Schemas['FirmwareItem'];

/** What POST /firmware/batchDelete did: how many went, and the ones refused with why. */
export type BatchDeleteResult = Schemas['BatchDeleted'];

/** A product of the catalogue, as the firmware form picks it. */
export type ProductOption = Schemas['Product'];

/** A hardware version of a product (GET /hardware?productId=). */
export type HardwareOption = Schemas['Hardware'];

export const firmwareKeys = {
  all: ['firmware'] as const,
  types: ['firmware', 'types'] as const,
  list: (target: FirmwareTarget, params: Readonly<Record<string, string | number>>) =>
    ['firmware', 'list', target, params] as const,
  products: ['firmware', 'products'] as const,
  hardware: (productId: number) => ['firmware', 'hardware', productId] as const,
};

// ---- the inverter-type tree ------------------------------------------------------------------

export const inverterTypesQuery = queryOptions({
  queryKey: firmwareKeys.types,
  queryFn: () => api.get('/api/v1/firmware/inverterTypes', { silent: true }),
});

/** Refusals the tree's dialogs and actions show themselves (a detail names which). */
const TYPE_REFUSALS = [ErrorCode.InvalidParameter];

export const addInverterType = (body: { name: string; parentId: number | null; codes: number[] }) =>
  api.post('/api/v1/firmware/inverterType/add', { body, handledCodes: TYPE_REFUSALS });

export const editInverterType = (body: { id: number; name: string; codes?: number[] }) =>
  api.post('/api/v1/firmware/inverterType/edit', { body, handledCodes: TYPE_REFUSALS });

export const moveInverterType = (id: number, parentId: number) =>
  api.post('/api/v1/firmware/inverterType/move', {
    body: { id, parentId },
    handledCodes: TYPE_REFUSALS,
  });

export const deleteInverterType = (id: number) =>
  api.get('/api/v1/firmware/inverterType/{id}/delete', {
    path: { id },
    handledCodes: TYPE_REFUSALS,
  });

/** Whether a sibling (under `parentId`) already has the name; null when there is no answer. */
export async function typeNameTaken(
  name: string,
  parentId: number | null,
  id?: number,
): Promise<boolean | null> {
  const params: Record<string, string | number> = { name: name.trim() };
  if (parentId !== null) params.parentId = parentId;
  if (id !== undefined) params.id = id;
  try {
    await api.get('/api/v1/firmware/inverterType/check', {
      query: params,
      handledCodes: TYPE_REFUSALS,
      silent: true,
    });
    return false;
  } catch (e) {
    return isApiError(e, ErrorCode.InvalidParameter) ? true : null;
  }
}

// ---- the firmware lists ----------------------------------------------------------------------

/** The list's search, label and enabled filters, kept in the URL. */
export const FIRMWARE_FILTERS = {
  keyword: text(),
  typeId: optionalId(),
  enabled: oneOf(['', 'true', 'false'] as const, ''),
};

export type FirmwareQuery = ListQuery<typeof FIRMWARE_FILTERS>;

export function firmwareParams(
  target: FirmwareTarget,
  q: FirmwareQuery,
): Record<string, string | number> {
  const params: Record<string, string | number> = {
    page: Math.max(1, Math.trunc(q.page)),
    limit: Math.min(100, Math.max(1, Math.trunc(q.limit))),
  };
  const keyword = q.keyword.trim();
  if (keyword) params.keyword = keyword;
  if (q.enabled) params.enabled = q.enabled;
  if (target === 'inverter' && q.typeId !== null) params.typeId = q.typeId;
  return params;
}

const PAGE_URL = {
  inverter: '/api/v1/firmware/page',
  gateway: '/api/v1/firmware/gateway/page',
} as const satisfies Record<FirmwareTarget, PathOf<'get'>>;

export const firmwareListQuery = (target: FirmwareTarget) => (q: FirmwareQuery) =>
  queryOptions({
    queryKey: firmwareKeys.list(target, firmwareParams(target, q)),
    queryFn: () =>
      api.get(PAGE_URL[target], {
        query: firmwareParams(target, q),
        silent: true,
      }),
    placeholderData: keepPreviousData,
  });

/** The firmware form's values as sent (multipart). */
export interface FirmwareForm {
  id?: number;
  file?: File;
  name: string;
  version: string;
  typeId?: number;
  productId?: number | null;
  hardwareVersion?: string;
  upgradeMode?: string;
  firmwareType?: string;
  changeLog?: string;
  changeLogEn?: string;
  enabled: boolean;
}

/** The multipart body of a save: every field as text, the file only when one was chosen. */
export function firmwareFormData(target: FirmwareTarget, v: FirmwareForm): FormData {
  const form = new FormData();
  const put = (key: string, value: string | number | boolean | null | undefined) => {
    if (value === undefined || value === null) return;
    form.append(key, typeof value === 'string' ? value.trim() : String(value));
  };
  if (target === 'inverter') put('id', v.id);
  put('name', v.name);
  put('version', v.version);
  if (target === 'inverter') {
    put('typeId', v.typeId);
    put('upgradeMode', v.upgradeMode);
    put('firmwareType', v.firmwareType);
  }
  // an empty product clears it (a missing one keeps it)
  if (v.productId !== undefined)
    form.append('productId', v.productId === null ? '' : String(v.productId));
  put('hardwareVersion', v.hardwareVersion);
  put('changeLog', v.changeLog ?? '');
  put('changeLogEn', v.changeLogEn ?? '');
  put('enabled', v.enabled);
  if (v.file) form.append('file', v.file, v.file.name);
  return form;
}

/** The refusals a save shows at its fields: a taken name or version, a bad value, too large. */
export const SAVE_REFUSALS: readonly number[] = [
  ErrorCode.InvalidParameter,
  ErrorCode.FirmwareNameTaken,
  ErrorCode.FirmwareVersionTaken,
  ErrorCode.UnsupportedFile,
  ErrorCode.FileTooLarge,
];

export function saveFirmware(target: FirmwareTarget, v: FirmwareForm): Promise<FirmwareItem> {
  const init = { body: firmwareFormData(target, v), handledCodes: SAVE_REFUSALS };
  if (target === 'inverter') return api.post('/api/v1/firmware/save', init);
  if (v.id === undefined) return api.post('/api/v1/firmware/gateway/add', init);
  return api.post('/api/v1/firmware/gateway/{id}', { path: { id: v.id }, ...init });
}

/** The name and version check (on blur): resolves when free, rejects with 4000, 4002 or 4. */
export function checkFirmware(
  target: FirmwareTarget,
  p: { name?: string; version?: string; typeId?: number; id?: number },
): Promise<void> {
  const params: { name?: string; version?: string; typeId?: number; id?: number } = {};
  if (p.name?.trim()) params.name = p.name.trim();
  if (p.version?.trim()) params.version = p.version.trim();
  if (target === 'inverter' && p.typeId !== undefined) params.typeId = p.typeId;
  if (p.id !== undefined) params.id = p.id;
  const url = target === 'inverter' ? '/api/v1/firmware/check' : '/api/v1/firmware/gateway/check';
  return api.get(url, { query: params, handledCodes: SAVE_REFUSALS, silent: true });
}

export const changeEnabled = (id: number, enable: boolean, notify: boolean) =>
  api.get('/api/v1/firmware/{id}/changeEnable', {
    path: { id },
    // the document has both as text (`true`/`false`), which is how the http client writes booleans
    query: {
      enable,
      notify: enable && notify,
    } as unknown as QueryOf<'/api/v1/firmware/{id}/changeEnable'>,
  });

export const deleteFirmware = (id: number) =>
  api.get('/api/v1/firmware/{id}/delete', {
    path: { id },
    handledCodes: [ErrorCode.InvalidParameter],
  });

export const batchDeleteFirmware = (ids: number[]) =>
  api.post('/api/v1/firmware/batchDelete', { body: { ids } });

export const downloadFirmware = (f: Pick<FirmwareItem, 'id' | 'fileName'>) =>
  api.download('/api/v1/firmware/{id}/download', { path: { id: f.id } }, f.fileName);

// ---- products and hardware (the form's pickers) -----------------------------------------------

export const productsQuery = (category: 'inverter' | 'gateway') =>
  queryOptions({
    queryKey: [...firmwareKeys.products, category],
    queryFn: async () =>
      (
        await api.get('/api/v1/product/', {
          query: { page: 1, limit: 100, category },
          silent: true,
        })
      ).infos,
    staleTime: 60_000,
  });

export const hardwareQuery = (productId: number | null | undefined) =>
  queryOptions({
    queryKey: firmwareKeys.hardware(productId ?? 0),
    queryFn: () => api.get('/api/v1/hardware', { query: { productId }, silent: true }),
    enabled: typeof productId === 'number',
    staleTime: 60_000,
  });
