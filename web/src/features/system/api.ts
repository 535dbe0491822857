import { queryOptions } from '@tanstack/react-query';
import { versionKeys } from '@/shared/api/keys';
import { http } from '@/shared/http';

/** A system release note (version, type, content CN/EN, announcer, release time). */
export interface VersionNote {
  id?: number;
  version: string;
  type?: string | number | null;
  content?: string | null;
  contentEn?: string | null;
  contentCn?: string | null;
  contentEs?: string | null;
  announcer?: string | null;
  releaseTime?: string | null;
  createAt?: string | null;
}

/** Lists may come as an array or as a paged list. */
function asList(data: unknown): VersionNote[] {
  if (Array.isArray(data)) return data as VersionNote[];
  if (data && typeof data === 'object' && Array.isArray((data as { infos?: unknown }).infos)) {
    return (data as { infos: VersionNote[] }).infos;
  }
  return [];
}

export const timelineQuery = queryOptions({
  queryKey: versionKeys.timeline,
  // The endpoint may not exist yet: no toast, no dialog; the page shows an empty state.
  queryFn: async () => asList(await http.get<unknown>('/version/timeline', { silent: true })),
  retry: false,
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
