import { MISSING } from '@/shared/format/number';

/**
 * The protocol config document (crates/devices/src/protocol, docs/device-protocol.md) as the
 * editor handles it: the JSON's own snake_case names, fields the editor does not know kept as
 * they are, and defaults left out as the server writes them.
 */

export const FAMILIES = ['inverter', 'meter', 'battery', 'weather_station'] as const;

export const DATA_TYPES = [
  'u8',
  'i8',
  'u16',
  'i16',
  'u32',
  'i32',
  'f32',
  'string',
  'bits',
] as const;
export type DataTypeName = (typeof DATA_TYPES)[number];

/** A point's data type: a name, or `{bits: {bit, width}}`. */
export type DataType = Exclude<DataTypeName, 'bits'> | { bits: { bit: number; width: number } };

export interface Point {
  key: string;
  unit?: string;
  /** 3 holding registers (the default), 4 input registers. */
  function_code?: number;
  register_type?: 'holding' | 'input';
  address: number;
  second_address?: number;
  count?: number;
  data_type: DataType;
  byte_swap?: boolean;
  word_swap?: boolean;
  base?: number;
  scale?: number;
  skip_bytes?: number;
  [other: string]: unknown;
}

export interface ProtocolConfig {
  code: string;
  name: string;
  family: string;
  inverter_type?: number;
  version: number;
  unit_id?: number;
  notes?: string;
  points: Point[];
  [other: string]: unknown;
}

/** The name of a point's data type ("bits" for a bit field). */
export function dataTypeName(t: DataType): DataTypeName {
  return typeof t === 'string' ? t : 'bits';
}

/** The data type for a name picked in the editor; a bit field starts as bit 0, width 1. */
export function dataTypeOf(name: DataTypeName, previous?: DataType): DataType {
  if (name !== 'bits') return name;
  return previous && typeof previous === 'object' ? previous : { bits: { bit: 0, width: 1 } };
}

/** Bytes a fixed-size type occupies (as the decoder counts them). */
const BYTES: Partial<Record<DataTypeName, number>> = {
  u8: 1,
  i8: 1,
  u16: 2,
  i16: 2,
  u32: 4,
  i32: 4,
  f32: 4,
};

/** Registers a point covers: its own count, else what its type and skipped bytes need. */
export function registerCount(p: Point): number | null {
  if (p.count !== undefined) return p.count;
  const name = dataTypeName(p.data_type);
  if (name === 'bits') return 1;
  const len = BYTES[name];
  return len === undefined ? null : Math.ceil(((p.skip_bytes ?? 0) + len) / 2);
}

/** The value a field takes when it is left out of the JSON. */
const DEFAULTS: Partial<Record<keyof Point, unknown>> = {
  unit: '',
  function_code: 3,
  byte_swap: false,
  word_swap: false,
  base: 0,
  scale: 1,
  skip_bytes: 0,
};

/**
 * A point with one field changed. A field set back to its default, or cleared, is left out
 * (as the server writes it); a changed function code drops a `register_type` that would
 * contradict it.
 */
export function setField<K extends keyof Point>(p: Point, field: K, value: Point[K] | null): Point {
  const next: Point = { ...p };
  if (value === null || value === undefined || value === DEFAULTS[field]) {
    if (field === 'address') next.address = 0;
    else delete next[field];
  } else {
    next[field] = value;
  }
  if (field === 'function_code') delete next.register_type;
  return next;
}

/** A new point: the next free key, just after the last point's registers. */
export function newPoint(points: readonly Point[]): Point {
  const keys = new Set(points.map((p) => p.key));
  let n = points.length + 1;
  while (keys.has(`point_${n}`)) n += 1;
  const last = points.at(-1);
  const address = last ? last.address + (registerCount(last) ?? 1) : 0;
  return { key: `point_${n}`, address, data_type: 'u16' };
}

/**
 * A captured frame as hex digits: spaces, line breaks, `0x` prefixes and `:`/`-` separators
 * are dropped; null when what is left is not whole bytes of hex.
 */
export function normalizeFrame(text: string): string | null {
  const hex = text
    .replace(/0x/gi, '')
    .replace(/[\s:,-]/g, '')
    .toUpperCase();
  return hex.length > 0 && hex.length % 2 === 0 && /^[0-9A-F]+$/.test(hex) ? hex : null;
}

/** A decoded value as text; float noise of the scaling (230.10000000000002) is trimmed. */
export function shownValue(v: number | string | boolean | null | undefined): string {
  if (v === null || v === undefined) return MISSING;
  if (typeof v === 'number') return String(Number(v.toPrecision(12)));
  return String(v);
}

/** A config's JSON as the raw editor shows it. */
export const toJson = (config: ProtocolConfig) => JSON.stringify(config, null, 2);

/**
 * The raw editor's text as a config, or the reason it is not one (the server checks the rest:
 * this only makes sure there is an object with points to show).
 */
export function parseConfig(text: string): { config: ProtocolConfig } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { error: 'not an object' };
  const v = value as Record<string, unknown>;
  if (!Array.isArray(v.points)) return { error: 'points' };
  if (v.points.some((p) => !p || typeof p !== 'object' || Array.isArray(p)))
    return { error: 'points' };
  return { config: value as ProtocolConfig };
}

/** A copy of a config under a new code and name, as a new config's first revision. */
export function copyConfig(source: ProtocolConfig, code: string, name: string): ProtocolConfig {
  return { ...source, code: code.trim(), name: name.trim(), version: 1 };
}

/** A config code: 1 to 64 of a-z, 0-9, `-` and `_`, starting with a letter or digit. */
export const CODE_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
