import { queryOptions } from '@tanstack/react-query';
import { versionKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { api } from '@/shared/api/client';
import { ErrorCode, isApiError } from '@/shared/http';

/** A system release note, its text in the caller's language and in each language. */
export type VersionNote = Schemas['Note'];

export const timelineQuery = queryOptions({
  queryKey: versionKeys.timeline,
  queryFn: () => api.get('/version/timeline'),
});

/** The release note text in the language shown, else whatever text there is. */
export function noteText(note: VersionNote, lang: string): string {
  const byLang: Record<string, string | null | undefined> = {
    en: note.contentEn,
    zh: note.contentCn,
    es: note.contentEs,
  };
  return byLang[lang] || note.content || note.contentEn || note.contentCn || '';
}

/** What the publish/edit form sends (`POST /api/v1/version`; with `id` it edits). */
export type VersionBody = Schemas['VersionRequest'];

export const saveVersion = (body: VersionBody) =>
  api.post('/api/v1/version', { body, handledCodes: [ErrorCode.InvalidParameter] });

export const deleteVersion = (id: number) =>
  api.get('/api/v1/version/{id}/delete', {
    path: { id },
    handledCodes: [ErrorCode.InvalidParameter],
  });

/** The field a refused save (code 4) names, e.g. `version` when the label is taken. */
export function refusedField(error: unknown): string | null {
  if (!isApiError(error, ErrorCode.InvalidParameter)) return null;
  return /:\s*([A-Za-z][\w.]*)\s*$/.exec(error.message)?.[1] ?? null;
}
