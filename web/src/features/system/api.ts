import { queryOptions } from '@tanstack/react-query';
import { versionKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { http } from '@/shared/http';

/** A system release note, its text in the caller's language and in each language. */
export type VersionNote = Schemas['Note'];

export const timelineQuery = queryOptions({
  queryKey: versionKeys.timeline,
  queryFn: () => http.get<VersionNote[]>('/version/timeline'),
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
