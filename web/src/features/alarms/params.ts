import type { AlarmRuleKind, AlarmParams } from './api';

/** A number parameter of a kind, with the server's range (docs/alarms.md). */
export interface NumberField {
  key: Exclude<keyof AlarmParams, 'codes' | 'allFaults'>;
  min: number;
  max: number;
  integer?: boolean;
  unit?: string;
}

const MINUTES: NumberField = { key: 'minutes', min: 15, max: 720, integer: true, unit: 'min' };
const PERCENT: NumberField = { key: 'percent', min: 10, max: 90, unit: '%' };

/** Each kind's number parameters, in the order the form shows them. */
export const FIELDS: Record<AlarmRuleKind, readonly NumberField[]> = {
  device_silent: [
    { key: 'warningCycles', min: 2, max: 100, integer: true },
    { key: 'alarmCycles', min: 3, max: 1000, integer: true },
  ],
  no_production: [
    { key: 'thresholdW', min: 0, max: 10_000, unit: 'W' },
    MINUTES,
    { key: 'minElevationDeg', min: 5, max: 60, unit: '°' },
  ],
  low_yield: [PERCENT],
  string_low: [PERCENT, MINUTES],
  cell_spread: [{ key: 'spreadMv', min: 10, max: 2000, unit: 'mV' }],
  soh_falling: [
    { key: 'dropPoints', min: 1, max: 50 },
    { key: 'days', min: 1, max: 365, integer: true },
    { key: 'floor', min: 0, max: 100, unit: '%' },
  ],
  event_code: [],
};

export const MAX_CODES = 50;
const CODE = /^[A-Za-z0-9_-]{1,16}$/;

/** The unit of a case's value, by kind. */
export const VALUE_UNIT: Record<AlarmRuleKind, string> = {
  device_silent: '',
  no_production: 'W',
  low_yield: '%',
  string_low: 'W',
  cell_spread: 'mV',
  soh_falling: '%',
  event_code: '',
};

/** Codes as typed (commas or spaces between them), upper case. */
export function parseCodes(raw: string): string[] {
  return raw
    .split(/[\s,;]+/)
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
}

/**
 * The first parameter the server would refuse (`params.<field>`, as its code 4 names it), or
 * null: the same ranges and cross-checks as `domain::alarm_rules::Params::validate`.
 */
export function invalidParam(kind: AlarmRuleKind, p: AlarmParams): string | null {
  for (const f of FIELDS[kind]) {
    const v = p[f.key];
    if (v === undefined || v === null) continue;
    if (!Number.isFinite(v) || v < f.min || v > f.max || (f.integer && !Number.isInteger(v))) {
      return `params.${f.key}`;
    }
  }
  if (kind === 'device_silent') {
    const warning = p.warningCycles ?? 3;
    const alarm = p.alarmCycles ?? 6;
    if (alarm <= warning) return 'params.alarmCycles';
  }
  if (kind === 'event_code') {
    const codes = p.codes ?? [];
    if (codes.length > MAX_CODES || codes.some((c) => !CODE.test(c))) return 'params.codes';
    if (codes.length === 0 && p.allFaults === false) return 'params.codes';
  }
  return null;
}
