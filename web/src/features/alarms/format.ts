import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import type { AlarmCase } from './api';
import { VALUE_UNIT } from './params';

/** A UTC time of the API in the browser's zone. */
export const when = (utc: string | null | undefined) =>
  utc ? dayjs(utc).format('YYYY-MM-DD HH:mm') : '';

/** The device or string a case is about; the plant itself for a plant-wide case. */
export function subjectOf(c: AlarmCase, t: TFunction): string {
  if (c.kind === 'string_low') return c.subject;
  return c.deviceSn ?? t('alarms.wholePlant');
}

/** The last figure seen, with its unit. */
export function valueOf(c: AlarmCase, t: TFunction): string {
  if (c.kind === 'event_code') {
    const code = (c.detail as { code?: unknown }).code;
    return typeof code === 'string' ? code : '';
  }
  if (c.kind === 'device_silent') return t('alarms.cycles', { count: c.value });
  return `${c.value} ${VALUE_UNIT[c.kind]}`.trim();
}
