import type { Schemas } from '@/shared/api/schema';

/** One point of a history series; values come as strings (API conventions). */
export type SeriesRecord = Schemas['Record'];

/** One series of a history answer (`infos[]`): `label` is a stable key, `name` English. */
export type Series = Schemas['Series'];
