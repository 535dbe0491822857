import dayjs from 'dayjs';
import { formatNumber, MISSING } from '@/shared/format/number';

/** Local time of an `updateAt` (UTC on the wire). */
export const localTime = (v: string | null | undefined) =>
  v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : MISSING;

/** A number with its unit, or the missing mark. */
export const withUnit = (v: string | number | null | undefined, unit: string) =>
  v === null || v === undefined ? MISSING : `${formatNumber(v)} ${unit}`;
