import { Limits } from '@/shared/api/limits.gen';
import { api } from '@/shared/api/client';
import { userKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { ErrorCode } from '@/shared/http';

export interface Profile {
  nickname: string;
  name: string;
  gender: number;
  mobile: string;
  email: string;
}

export const updateProfile = (id: number, body: Profile) =>
  api.post('/api/v1/user/{id}', { path: { id }, body });

export const changePassword = (id: number, body: { oldPassword: string; newPassword: string }) =>
  // wrong current password, too many of them, a too common new one: shown on the form
  api.post('/api/v1/user/{id}/pwd', {
    path: { id },
    body,
    handledCodes: [
      ErrorCode.OldPasswordWrong,
      ErrorCode.PasswordChangeLocked,
      ErrorCode.PasswordTooCommon,
    ],
  });

export function uploadAvatar(id: number, file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  return api.post('/api/v1/user/{id}/avatar', { path: { id }, body: form });
}

/** GET /api/v1/user/personalized. */
export type Personalized = Schemas['Preferences'];

export const personalizedQueryKey = userKeys.personalized;
export const getPersonalized = () => api.get('/api/v1/user/personalized');
export const savePersonalized = (body: Personalized) =>
  api.post('/api/v1/user/personalized', { body });

/**
 * Abnormal-event e-mails: GET /api/v1/user/notify/enable; `offlineMinutes` is how long a
 * plant's gateway stays offline before the e-mail.
 */
export type NotifySettings = Schemas['NotifySettings'];

/** The browser's time zone, in which quiet hours are set (UTC when it cannot tell). */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The offline delay's bounds, in minutes (the server's default is 30). */
export const OFFLINE_MINUTES = {
  min: Limits.NotifyRequest.offlineMinutes.minimum,
  max: Limits.NotifyRequest.offlineMinutes.maximum,
} as const;
export const notifyQueryKey = userKeys.notify;
export const getNotify = () => api.get('/api/v1/user/notify/enable');
export const sendNotifyCode = (email: string) =>
  api.get('/api/v1/user/notify/code', {
    query: { email },
    handledCodes: [
      ErrorCode.InvalidParameter,
      ErrorCode.CodeWrong,
      ErrorCode.CodeExpired,
      ErrorCode.TooManyAttempts,
    ],
  });
export const saveNotify = (body: {
  enabled: boolean;
  email: string;
  offlineMinutes?: number;
  code?: string;
  /** Quiet hours: `HH:MM` in `quietZone` (an IANA zone: the browser's). */
  quietEnabled?: boolean;
  quietFrom?: string;
  quietTo?: string;
  quietZone?: string;
}) =>
  api.post('/api/v1/user/notify', {
    body,
    handledCodes: [
      ErrorCode.InvalidParameter,
      ErrorCode.CodeWrong,
      ErrorCode.CodeExpired,
      ErrorCode.TooManyAttempts,
    ],
  });
