export type TempUnit = 'C' | 'F';

/** A number sent as text, or null when it is missing or not a number. */
export const num = (v: string | null | undefined): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

/** °C (what the server sends) in the user's unit, one decimal. */
export function toUserTemp(celsius: number, unit: TempUnit): number {
  const v = unit === 'F' ? (celsius * 9) / 5 + 32 : celsius;
  return Math.round(v * 10) / 10;
}

/** A temperature as text in the user's unit ('--' when missing). */
export function formatTemp(value: string | number | null | undefined, unit: TempUnit): string {
  const n = typeof value === 'number' ? value : num(value);
  return n === null ? '--' : `${toUserTemp(n, unit)} °${unit}`;
}
