import type { Field, Values } from './api';

export type FormValues = Record<string, string | boolean>;

/** Whether a flag's text means on: the read writes most flags "1"/"0" and the time-of-use
 * switches and day flags "true"/"false", as the original API does. */
export function isOn(text: string): boolean {
  return text === 'true' || text === '1';
}

/** Form values from a read: booleans become switches, everything else stays text. */
export function toForm(fields: Field[], values: Values): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    const v = values[f.key] ?? f.default;
    out[f.key] = f.type === 'bool' ? isOn(v) : v;
  }
  return out;
}

/** The whole set as the server reads it: every value a string. */
export function toWire(sn: string, values: FormValues): Values {
  const out: Values = { sn };
  for (const [k, v] of Object.entries(values)) out[k] = typeof v === 'boolean' ? String(v) : v;
  return out;
}
