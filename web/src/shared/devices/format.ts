import { formatNumber, MISSING } from '@/shared/format/number';

/** A number with its unit, or the missing mark. */
export const withUnit = (v: string | number | null | undefined, unit: string) =>
  v === null || v === undefined ? MISSING : `${formatNumber(v)} ${unit}`;
