import dayjs from 'dayjs';
import { MISSING } from '@/shared/format/number';

/** An instant of the API (RFC 3339) in the reader's zone, to the minute. */
export function shortTime(value: string | null | undefined): string {
  if (!value) return MISSING;
  const at = dayjs(value);
  return at.isValid() ? at.format('YYYY-MM-DD HH:mm') : MISSING;
}

/** The reader's zone, named after a time so an event's hours read without doubt. */
export function readerZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** `shortTime` with the reader's zone: "2026-11-26 17:00 (Europe/Madrid)". */
export function zonedTime(value: string | null | undefined): string {
  const text = shortTime(value);
  return text === MISSING ? text : `${text} (${readerZone()})`;
}

/** Minutes as "2 h", "1 h 30 min" or "45 min". */
export function formatMinutes(minutes: number): { h: number; m: number } {
  const whole = Math.max(0, Math.round(minutes));
  return { h: Math.floor(whole / 60), m: whole % 60 };
}
