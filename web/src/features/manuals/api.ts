import { api } from '@/shared/api/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Schemas } from '@/shared/api/schema';
import { ErrorCode } from '@/shared/http';

/** An item of GET /api/v1/manuals. */
export type Manual = Schemas['ManualItem'];

export const LANGUAGES = ['en', 'zh', 'es', 'all'] as const;
export type ManualLanguage = (typeof LANGUAGES)[number];

/** PDF, PNG or JPEG, at most 20 MB (the server checks the first bytes again). */
export const MAX_BYTES = 20 * 1024 * 1024;
export const ACCEPT = '.pdf,.png,.jpg,.jpeg';

export const manualKeys = {
  all: ['manuals'] as const,
  list: (params: Record<string, string | number>) => ['manuals', 'list', params] as const,
  products: ['manuals', 'products'] as const,
};

export interface ManualQuery {
  page: number;
  limit: number;
  keyword: string;
  language: string;
}

export function manualParams(q: ManualQuery): Record<string, string | number> {
  return {
    page: Math.max(1, Math.trunc(q.page)),
    limit: Math.min(100, Math.max(1, Math.trunc(q.limit))),
    keyword: q.keyword.trim(),
    language: q.language,
  };
}

export const manualListQuery = (q: ManualQuery) =>
  queryOptions({
    queryKey: manualKeys.list(manualParams(q)),
    queryFn: () => api.get('/api/v1/manuals', { query: manualParams(q), silent: true }),
    placeholderData: keepPreviousData,
  });

/** Every product, for the upload's model picker (administrators only). */
export const productOptionsQuery = () =>
  queryOptions({
    queryKey: manualKeys.products,
    queryFn: async () =>
      (await api.get('/api/v1/product/', { query: { page: 1, limit: 100 }, silent: true })).infos,
    staleTime: 60_000,
  });

/** What the upload and edit form holds. */
export interface ManualForm {
  productId?: number;
  title?: string;
  language?: ManualLanguage;
  version?: string;
  /** YYYY-MM-DD or empty. */
  issued?: string;
  file?: File;
}

/** The multipart body of an upload or an edit: the fields, and the file when one was chosen. */
export function manualFormData(v: ManualForm): FormData {
  const form = new FormData();
  if (v.productId !== undefined) form.append('productId', String(v.productId));
  form.append('title', (v.title ?? '').trim());
  form.append('language', v.language ?? 'all');
  form.append('version', (v.version ?? '').trim());
  form.append('issued', v.issued ?? '');
  if (v.file) {
    form.append('fileName', v.file.name);
    form.append('file', v.file, v.file.name);
  }
  return form;
}

/** Refusals the dialog shows itself. */
export const SAVE_REFUSALS = [
  ErrorCode.InvalidParameter,
  ErrorCode.UnsupportedFile,
  ErrorCode.FileTooLarge,
  ErrorCode.ManualMissing,
];

export const saveManual = (id: number | undefined, v: ManualForm) =>
  id === undefined
    ? api.post('/api/v1/manual', {
        body: manualFormData(v),
        handledCodes: SAVE_REFUSALS,
      })
    : api.post('/api/v1/manual/{id}', {
        path: { id },
        body: manualFormData(v),
        handledCodes: SAVE_REFUSALS,
      });

export const deleteManual = (id: number) =>
  api.post('/api/v1/manual/{id}/delete', { path: { id } });

export const downloadManual = (m: Pick<Manual, 'id' | 'fileName'>) =>
  api.download('/api/v1/manual/{id}/download', { path: { id: m.id } }, m.fileName);

/** `1.2 MB`, `350 KB`, `900 B`. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** Whether a chosen file may be uploaded: its name's type and its size (the server decides). */
export function fileProblem(file: { name: string; size: number }): 'type' | 'size' | null {
  if (!/\.(pdf|png|jpe?g)$/i.test(file.name)) return 'type';
  if (file.size > MAX_BYTES) return 'size';
  return null;
}
