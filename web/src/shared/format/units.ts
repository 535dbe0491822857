import { compactNumber, formatNumber, MISSING } from './number';

/**
 * One formatter for quantities with a unit. Power and energy follow the compact rule of
 * section 9 on their base unit (W, Wh), whatever prefix the value comes with: 32.4 kWh reads
 * "32.4 kWh", 1,339 kWh reads "1.3 MWh", 4,200 W reads "4.2 kW" (never "1.3 kkWh"). Other
 * units (V, A, Hz, %, °C...) show the number with separators and at most two decimals.
 */
export function formatQuantity(value: unknown, unit: string): string {
  const n = toNumber(value);
  if (n === null) return MISSING;
  const scaled = toBase(unit);
  if (scaled) {
    const { value: v, unit: prefix } = compactNumber(n * scaled.factor);
    return `${v} ${prefix}${scaled.base}`;
  }
  const rounded = Math.round(n * 100) / 100;
  return unit ? `${formatNumber(rounded)} ${unit}` : formatNumber(rounded);
}

/** Power sent in W. */
export const formatPower = (watts: unknown) => formatQuantity(watts, 'W');

/** Energy sent in kWh (how the server sends energy). */
export const formatEnergy = (kwh: unknown) => formatQuantity(kwh, 'kWh');

/** The base unit (W or Wh) of a power or energy unit and the factor to it; null for others. */
export function toBase(unit: string): { base: 'W' | 'Wh'; factor: number } | null {
  const m = /^([kMG]?)(Wh?)$/.exec(unit);
  if (!m) return null;
  const factor = { '': 1, k: 1e3, M: 1e6, G: 1e9 }[m[1] as '' | 'k' | 'M' | 'G'];
  return { base: m[2] as 'W' | 'Wh', factor };
}

/**
 * The display scale of a set of power or energy values (in their base unit): W, kW or MW by
 * the largest magnitude, so a chart axis reads "45 kW" rather than "45,000 W".
 */
export function scaleFor(maxAbs: number, base: 'W' | 'Wh'): { unit: string; divisor: number } {
  const m = Math.abs(maxAbs);
  if (m >= 1e6) return { unit: `M${base}`, divisor: 1e6 };
  if (m >= 1e3) return { unit: `k${base}`, divisor: 1e3 };
  return { unit: base, divisor: 1 };
}

function toNumber(value: unknown): number | null {
  if (value === null || value === undefined || value === '' || typeof value === 'boolean')
    return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}
