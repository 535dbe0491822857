/**
 * The plant tariff: the valuation methods and their segment editors as pure functions
 * (normalise, validate, edit rows, build the request body, read a plant back into the form).
 */
import { decimalInRange, price as priceRule, touSegments, type Check } from '@/shared/validators';
import type { TariffRow, PlantBody } from './api';

/** A tariff line as the forms send it (`charges` of POST /plant and /plant/{id}/income). */
export interface TariffSegmentInput {
  type: number;
  price: number;
  startRange?: string;
  endRange?: string;
  status: null | 'import' | 'export';
}

/** What the editor reads of a stored tariff line (`charges` of GET /plant/{id}). */
export type StoredTariffSegment = Pick<TariffRow, 'type' | 'price'> &
  Partial<Pick<TariffRow, 'startRange' | 'endRange'>>;

export const CONSTANT = 1;
export const TIME_OF_USE = 2;
export const VOLUME = 3;
export type Valuation = typeof CONSTANT | typeof TIME_OF_USE | typeof VOLUME;

export const MAX_SEGMENTS = 6;
export const MAX_TIERS = 6;
export const DAY_END = '24:00';

export interface Segment {
  start: string;
  end: string;
  price?: string | number | null;
}

/** What the editor reports: the message key (and values) and the row it concerns, if any. */
export interface TariffIssue {
  key: string;
  values?: Record<string, string | number>;
  row?: number;
}

export const toMinutes = (hhmm: string): number | null => {
  const m = /^(\d{1,2}):([0-5]\d)$/.exec(hhmm.trim());
  if (!m) return null;
  const total = Number(m[1]) * 60 + Number(m[2]);
  return total <= 24 * 60 ? total : null;
};

export const fromMinutes = (total: number): string => {
  const h = Math.floor(total / 60);
  const m = total % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
};

/** "H:MM" → "HH:MM"; 23:59 as the end of the day is stored as 24:00. */
export function normaliseTime(value: string, isEnd = false): string {
  const n = toMinutes(value ?? '');
  if (n === null) return (value ?? '').trim();
  if (isEnd && n === 24 * 60 - 1) return DAY_END;
  return fromMinutes(n);
}

/** Every row's times normalised (the last end 23:59 becomes 24:00). */
export function normaliseSegments<T extends Segment>(rows: readonly T[]): T[] {
  return rows.map((r, i) => ({
    ...r,
    start: normaliseTime(r.start),
    end: i === rows.length - 1 ? normaliseTime(r.end, true) : normaliseTime(r.end),
  }));
}

const priceIssue = (rows: readonly Segment[]): TariffIssue | null => {
  for (let i = 0; i < rows.length; i += 1) {
    const p = rows[i]?.price;
    if (p === undefined || p === null || p === '')
      return { key: 'plants.tariff.priceRequired', row: i };
    const problem = priceRule(p);
    if (problem) return { ...problem, row: i };
  }
  return null;
};

/**
 * Time-of-use segments: 1-6 rows, from 00:00, each starting where the previous ended (no gap,
 * no overlap), each ending after it starts, the last ending at 24:00 (23:59 accepted).
 */
export function validateTou(rows: readonly Segment[]): TariffIssue | null {
  if (rows.length === 0) return { key: 'validation.touRequired' };
  if (rows.length > MAX_SEGMENTS)
    return { key: 'validation.touMax', values: { max: MAX_SEGMENTS } };
  let expected = 0;
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i] as Segment;
    const start = toMinutes(row.start ?? '');
    const end = toMinutes(row.end ?? '');
    if (start === null || end === null) return { key: 'plants.tariff.timeFormat', row: i };
    if (i === 0 && start !== 0) return { key: 'plants.tariff.startAtMidnight', row: 0 };
    if (start > expected)
      return {
        key: 'plants.tariff.gap',
        values: { from: fromMinutes(expected), to: row.start },
        row: i,
      };
    if (start < expected)
      return { key: 'plants.tariff.overlap', values: { time: row.start }, row: i };
    if (end <= start) return { key: 'validation.touRange', row: i };
    expected = end;
  }
  const last = rows[rows.length - 1] as Segment;
  if (!['24:00', '23:59'].includes(normaliseTime(last.end))) {
    return { key: 'validation.touEnd', row: rows.length - 1 };
  }
  // the shared rule agrees on what is left
  const shared: Check = touSegments(normaliseSegments(rows));
  if (shared) return shared;
  return priceIssue(rows);
}

const kwh = (value: unknown): number | null => {
  const s = String(value ?? '').trim();
  if (!/^(0|[1-9]\d*)(\.\d{1,3})?$/.test(s)) return null;
  return Number(s);
};

/**
 * Volume tiers (kWh): the first starts at 0, each starts where the previous ended, each ends
 * above its start, and the last one is open (empty end).
 */
export function validateTiers(rows: readonly Segment[]): TariffIssue | null {
  if (rows.length === 0) return { key: 'plants.tariff.tierRequired' };
  if (rows.length > MAX_TIERS) return { key: 'plants.tariff.tierMax', values: { max: MAX_TIERS } };
  let expected = 0;
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i] as Segment;
    const start = kwh(row.start);
    if (start === null) return { key: 'plants.tariff.tierNumber', row: i };
    if (start !== expected)
      return { key: 'plants.tariff.tierContiguous', values: { from: expected }, row: i };
    const isLast = i === rows.length - 1;
    if (isLast) {
      if (String(row.end ?? '').trim() !== '') return { key: 'plants.tariff.tierOpen', row: i };
      break;
    }
    const end = kwh(row.end);
    if (end === null) return { key: 'plants.tariff.tierNumber', row: i };
    if (end <= start) return { key: 'plants.tariff.tierRange', row: i };
    expected = end;
  }
  return priceIssue(rows);
}

// ---- editing rows ---------------------------------------------------------------------------

/** A new time-of-use row: the last segment is split in two (rounded to 15 minutes). */
export function addSegment(rows: readonly Segment[]): Segment[] {
  if (rows.length >= MAX_SEGMENTS) return [...rows];
  if (rows.length === 0) return [{ start: '00:00', end: DAY_END, price: '' }];
  const last = rows[rows.length - 1] as Segment;
  const start = toMinutes(last.start) ?? 0;
  const end = toMinutes(last.end) ?? 24 * 60;
  const mid = Math.round((start + (end - start) / 2) / 15) * 15;
  if (mid <= start || mid >= end) return [...rows, { start: last.end, end: DAY_END, price: '' }];
  return [
    ...rows.slice(0, -1),
    { ...last, end: fromMinutes(mid) },
    { start: fromMinutes(mid), end: last.end, price: '' },
  ];
}

/** Removes a row; its neighbour takes over its time so the day stays covered. */
export function removeSegment(rows: readonly Segment[], index: number): Segment[] {
  if (rows.length <= 1 || index < 0 || index >= rows.length) return [...rows];
  const removed = rows[index] as Segment;
  const next = rows.filter((_, i) => i !== index);
  if (index === 0) next[0] = { ...(next[0] as Segment), start: removed.start };
  else next[index - 1] = { ...(next[index - 1] as Segment), end: removed.end };
  return next;
}

/** Changes a row's end; the next row starts there. */
export function setSegmentEnd(rows: readonly Segment[], index: number, end: string): Segment[] {
  return rows.map((r, i) => {
    if (i === index) return { ...r, end };
    if (i === index + 1) return { ...r, start: end };
    return r;
  });
}

/** A new volume tier: the open last tier gets an end, the new one starts there and is open. */
export function addTier(rows: readonly Segment[]): Segment[] {
  if (rows.length >= MAX_TIERS) return [...rows];
  if (rows.length === 0) return [{ start: '0', end: '', price: '' }];
  const last = rows[rows.length - 1] as Segment;
  const start = kwh(last.start) ?? 0;
  const end = String(start + 1000);
  return [...rows.slice(0, -1), { ...last, end }, { start: end, end: '', price: '' }];
}

export function removeTier(rows: readonly Segment[], index: number): Segment[] {
  const next = removeSegment(rows, index);
  if (next.length > 0) next[next.length - 1] = { ...(next[next.length - 1] as Segment), end: '' };
  return next;
}

// ---- the request body -----------------------------------------------------------------------

export interface TariffForm {
  valuation: Valuation;
  price?: string | number | null;
  segments?: Segment[];
  tiers?: Segment[];
}

const num = (v: unknown): number => Number(String(v ?? '').trim());

/** The valuation's issue, or null when the tariff can be sent. */
export function validateTariff(form: TariffForm): TariffIssue | null {
  if (form.valuation === CONSTANT) {
    if (form.price === undefined || form.price === null || form.price === '')
      return { key: 'plants.tariff.priceRequired' };
    return priceRule(form.price);
  }
  if (form.valuation === TIME_OF_USE) return validateTou(form.segments ?? []);
  return validateTiers(form.tiers ?? []);
}

/** `charges` of POST /plant and /plant/{id}/income. */
export function buildTariff(form: TariffForm): TariffSegmentInput[] {
  if (form.valuation === CONSTANT)
    return [{ type: CONSTANT, price: num(form.price), status: null }];
  if (form.valuation === TIME_OF_USE) {
    return normaliseSegments(form.segments ?? []).map((s) => ({
      type: TIME_OF_USE,
      price: num(s.price),
      startRange: s.start,
      endRange: s.end,
      status: null,
    }));
  }
  const tiers = form.tiers ?? [];
  return tiers.map((s, i) => ({
    type: VOLUME,
    price: num(s.price),
    startRange: String(s.start).trim(),
    endRange: i === tiers.length - 1 ? '' : String(s.end).trim(),
    status: null,
  }));
}

/** The investment as a number with at most 2 decimals (0-999999999), or null when left empty. */
export function investValue(value: unknown): number | null {
  if (value === undefined || value === null || String(value).trim() === '') return null;
  return decimalInRange(value, 0, 999_999_999, 2) ? null : num(value);
}

export interface WizardValues extends TariffForm {
  name: string;
  totalPower: string | number;
  joinDate: string;
  type: number;
  timezone: string | number;
  currency?: string | number;
  address?: string;
  lon?: string | number | null;
  lat?: string | number | null;
  /** Module tilt (0-90°) and azimuth (0-360°, 180 = south); optional. */
  tilt?: string | number | null;
  azimuth?: string | number | null;
  imageUrl?: string;
  thumbUrl?: string;
  principal?: string;
  phone?: string;
  email?: string;
  installer?: string;
  invest?: string | number | null;
  owner?: string;
}

const optionalNumber = (v: unknown): number | undefined =>
  v === undefined || v === null || String(v).trim() === '' ? undefined : num(v);

const optionalText = (v: unknown): string | undefined => {
  const s = String(v ?? '').trim();
  return s === '' ? undefined : s;
};

/** The body of POST /api/v1/plant: trimmed texts, numbers as numbers, empty fields left out. */
export function buildCreateBody(v: WizardValues): PlantBody {
  const body: PlantBody = {
    name: v.name.trim(),
    totalPower: num(v.totalPower),
    joinDate: v.joinDate,
    type: v.type,
    // an id or a code: the server reads a number as its text (the document has text only)
    timezone: String(v.timezone),
    currency: v.currency === undefined ? undefined : String(v.currency),
    address: optionalText(v.address),
    lon: optionalNumber(v.lon),
    lat: optionalNumber(v.lat),
    tilt: optionalNumber(v.tilt),
    azimuth: optionalNumber(v.azimuth),
    imageUrl: optionalText(v.imageUrl),
    thumbUrl: optionalText(v.thumbUrl),
    principal: optionalText(v.principal),
    phone: optionalText(v.phone),
    email: optionalText(v.email),
    installer: optionalText(v.installer),
    invest: investValue(v.invest) ?? undefined,
    owner: optionalText(v.owner),
    charges: buildTariff(v),
  };
  // the same body without the fields left undefined (JSON leaves them out too)
  return Object.fromEntries(
    Object.entries(body).filter(([, value]) => value !== undefined),
  ) as PlantBody;
}

/** A plant's charges read back into the editor (the method from `valuation` or the charges). */
export function tariffFromRows(
  charges: readonly StoredTariffSegment[],
  valuation?: number | null,
): TariffForm {
  const kind = (valuation ?? charges[0]?.type ?? CONSTANT) as Valuation;
  const ofKind = charges.filter((c) => c.type === kind);
  const rows = (list: readonly StoredTariffSegment[]): Segment[] =>
    list.map((c) => ({ start: c.startRange ?? '', end: c.endRange ?? '', price: String(c.price) }));
  if (kind === TIME_OF_USE && ofKind.length > 0) {
    const sorted = [...ofKind].sort(
      (a, b) => (toMinutes(a.startRange ?? '') ?? 0) - (toMinutes(b.startRange ?? '') ?? 0),
    );
    return { valuation: TIME_OF_USE, segments: rows(sorted) };
  }
  if (kind === VOLUME && ofKind.length > 0) {
    const sorted = [...ofKind].sort(
      (a, b) => Number(a.startRange ?? 0) - Number(b.startRange ?? 0),
    );
    return { valuation: VOLUME, tiers: rows(sorted) };
  }
  const first = ofKind[0] ?? charges[0];
  return { valuation: CONSTANT, price: first ? String(first.price) : '' };
}

/** Default rows when a method is chosen for the first time. */
export const DEFAULT_SEGMENTS: Segment[] = [
  { start: '00:00', end: '08:00', price: '' },
  { start: '08:00', end: DAY_END, price: '' },
];
export const DEFAULT_TIERS: Segment[] = [{ start: '0', end: '', price: '' }];

/** HH:MM choices every 15 minutes, 00:00 to 24:00. */
export const TIME_CHOICES: string[] = Array.from({ length: 97 }, (_, i) => fromMinutes(i * 15));
