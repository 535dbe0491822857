import dayjs from 'dayjs';
import { MISSING } from '@/shared/format/number';

/** A payload to show: pretty-printed when it is JSON, else as sent (text, or hex of binary). */
export function prettyPayload(payload: string): { text: string; json: boolean } {
  const trimmed = payload.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { text: JSON.stringify(JSON.parse(trimmed), null, 2), json: true };
    } catch {
      // a truncated or malformed document is shown as it came
    }
  }
  return { text: payload, json: false };
}

/** Bytes as B, KiB or MiB. */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return MISSING;
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

const BARE_UTC = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * A time of the API in the reader's zone, `YYYY-MM-DD HH:mm:ss`: epoch milliseconds, an ISO
 * time with its zone, or a bare `YYYY-MM-DD HH:MM:SS` (the log's times are UTC).
 */
export function localTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return MISSING;
  const at =
    typeof value === 'number'
      ? dayjs(value)
      : dayjs(BARE_UTC.test(value) ? `${value.replace(' ', 'T')}Z` : value);
  return at.isValid() ? at.format('YYYY-MM-DD HH:mm:ss') : MISSING;
}
