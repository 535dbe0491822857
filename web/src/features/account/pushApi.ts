/**
 * The push subscription routes (docs/pwa.md, "Push"). Hand-typed: they are not in this
 * branch's API document yet. The types mirror what the generated ones will be
 * (`Schemas['PushSubscription']` and so on); at merge these become `api.get(...)` calls and
 * `Schemas[...]` aliases like webhooksApi.ts.
 */
import { http } from '@/shared/http';
import { ErrorCode } from '@/shared/http';
import { userKeys } from '@/shared/api/keys';
import type { AlarmKind } from './webhooksApi';

export type Severity = 'warning' | 'alarm';

/** A device (browser) receiving this user's alarms as push notifications. */
export interface PushDevice {
  id: number;
  deviceName: string;
  /** The push service's host (fcm.googleapis.com, web.push.apple.com, ...). */
  endpointHost: string;
  /** Empty: every kind. */
  kinds: AlarmKind[];
  minSeverity: Severity;
  createdAt: string;
  lastSuccessAt: string | null;
  lastError: string | null;
}

/** What a device receives (the POST .../{id} body). */
export interface PushChoice {
  deviceName: string;
  kinds: AlarmKind[];
  minSeverity: Severity;
}

/** POST /api/v1/user/pushSubscriptions: the browser's subscription (an upsert by endpoint). */
export interface PushSubscribeRequest extends PushChoice {
  endpoint: string;
  /** The subscription's keys, base64url as the browser gives them. */
  p256dh: string;
  auth: string;
}

/** Codes a form shows itself: a bad field. */
const handledCodes = [ErrorCode.InvalidParameter];

export const pushKeys = {
  devices: [...userKeys.all, 'pushSubscriptions'] as const,
};

export const pushDevicesQuery = {
  queryKey: pushKeys.devices,
  queryFn: () => http.get<PushDevice[]>('/api/v1/user/pushSubscriptions'),
};

/** The portal's VAPID public key (base64url); failing: push is not available here. */
export const pushKey = () =>
  http.get<{ publicKey: string }>('/api/v1/user/push/key', { silent: true });

export const subscribePush = (body: PushSubscribeRequest) =>
  http.post<PushDevice>('/api/v1/user/pushSubscriptions', body, { handledCodes });

export const updatePush = (id: number, body: PushChoice) =>
  http.post<PushDevice>(`/api/v1/user/pushSubscriptions/${id}`, body, { handledCodes });

export const deletePush = (id: number) =>
  http.post<void>(`/api/v1/user/pushSubscriptions/${id}/delete`);

export const testPush = (id: number) =>
  http.post<unknown>(`/api/v1/user/pushSubscriptions/${id}/test`);
