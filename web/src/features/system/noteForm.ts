import dayjs, { type Dayjs } from 'dayjs';
import type { Check } from '@/shared/validators';
import type { VersionBody, VersionNote } from './api';

/** The limits the server holds a release note to (crates/service/src/versions.rs). */
export const NOTE_LIMITS = { version: 20, content: 4000 } as const;
export const NOTE_KINDS = [1, 2, 3] as const;

/** The publish/edit form's values. */
export interface NoteValues {
  version: string;
  type: number;
  releaseTime: Dayjs | null;
  contentCn: string;
  contentEn: string;
}

/** A version label such as V250120: letters, digits, - _ and . (at most 20). */
export function versionLabel(value: unknown): Check {
  const v = String(value ?? '').trim();
  return /^[A-Za-z0-9._-]+$/.test(v) && v.length <= NOTE_LIMITS.version
    ? null
    : { key: 'releaseNotes.rules.version', values: { max: NOTE_LIMITS.version } };
}

/** The spec keeps a note in Chinese and English: at least one of the two must be written. */
export function someContent(cn: unknown, en: unknown): Check {
  const written = (v: unknown) => String(v ?? '').trim() !== '';
  return written(cn) || written(en) ? null : { key: 'releaseNotes.rules.content' };
}

/** The server sends release times as `YYYY-MM-DD HH:MM:SS` in UTC. */
export function releaseMoment(note: Pick<VersionNote, 'releaseTime' | 'createAt'>): Dayjs | null {
  if (note.releaseTime) {
    const at = dayjs(`${note.releaseTime.replace(' ', 'T')}Z`);
    if (at.isValid()) return at;
  }
  const created = note.createAt ? dayjs(note.createAt) : null;
  return created?.isValid() ? created : null;
}

/** The form's starting values: empty for a new note (portal, released now), else the note's. */
export function noteValues(note?: VersionNote): NoteValues {
  if (!note) return { version: '', type: 1, releaseTime: null, contentCn: '', contentEn: '' };
  return {
    version: note.version,
    type: note.type,
    releaseTime: releaseMoment(note),
    contentCn: note.contentCn,
    contentEn: note.contentEn,
  };
}

/** The request for the form's values; an edit keeps the Spanish text the form does not show. */
export function noteBody(values: NoteValues, note?: VersionNote): VersionBody {
  return {
    ...(note ? { id: note.id, contentEs: note.contentEs } : {}),
    version: values.version.trim(),
    type: values.type,
    contentCn: values.contentCn.trim(),
    contentEn: values.contentEn.trim(),
    releaseTime: values.releaseTime ? values.releaseTime.valueOf() : null,
  };
}
