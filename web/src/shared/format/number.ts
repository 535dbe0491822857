/** Number formatting (docs/overview.md). Missing values show as '--'. */
export const MISSING = '--';

function toNumber(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** Thousands separators; fixed decimals when `decimals` is given. */
export function formatNumber(value: unknown, decimals?: number): string {
  const n = toNumber(value);
  if (n === null) return MISSING;
  const fixed = decimals === undefined ? String(n) : n.toFixed(decimals);
  const negative = fixed.startsWith('-');
  const [int = '0', frac] = (negative ? fixed.slice(1) : fixed).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}

export interface Compact {
  value: string;
  /** '' (as is), 'k' (thousands) or 'M' (millions). */
  unit: '' | 'k' | 'M';
}

/**
 * Compact display: a value whose integer part has 3 to 5 digits is shown in thousands (k),
 * 6 or more in millions (M), with one decimal; shorter values as they are (one decimal at most).
 */
export function compactNumber(value: unknown): Compact {
  const n = toNumber(value);
  if (n === null) return { value: MISSING, unit: '' };
  const digits = String(Math.trunc(Math.abs(n))).length;
  const oneDecimal = (x: number) => String(Math.round(x * 10) / 10);
  if (digits >= 6) return { value: oneDecimal(n / 1_000_000), unit: 'M' };
  if (digits >= 3) return { value: oneDecimal(n / 1_000), unit: 'k' };
  return { value: oneDecimal(n), unit: '' };
}

export function formatCompact(value: unknown, baseUnit = ''): string {
  const { value: v, unit } = compactNumber(value);
  if (v === MISSING) return MISSING;
  const suffix = `${unit}${baseUnit}`;
  return suffix ? `${v} ${suffix}` : v;
}
