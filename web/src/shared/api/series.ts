/** One point of a history series; values come as strings (API conventions). */
export interface SeriesRecord {
  time: string;
  value: string;
  updateTime: string | null;
}

/** One series of a history answer (`infos[]`): `label` is a stable key, `name` English. */
export interface Series {
  unit: string;
  label: string;
  id?: number | null;
  groupCode?: string | null;
  name?: string | null;
  records: SeriesRecord[];
}
