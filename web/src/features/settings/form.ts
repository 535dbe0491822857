import type { Field, Values } from './api';

export type FormValues = Record<string, string | boolean>;

/** Form values from a read: booleans become switches, everything else stays text. */
export function toForm(fields: Field[], values: Values): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    const v = values[f.key] ?? f.default;
    out[f.key] = f.type === 'bool' ? v === 'true' : v;
  }
  return out;
}

/** The whole set as the server reads it: every value a string. */
export function toWire(sn: string, values: FormValues): Values {
  const out: Values = { sn };
  for (const [k, v] of Object.entries(values)) out[k] = typeof v === 'boolean' ? String(v) : v;
  return out;
}
