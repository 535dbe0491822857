/** The push subscription routes (docs/push.md, docs/pwa.md "Push"). */
import { api } from '@/shared/api/client';
import { userKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { ErrorCode } from '@/shared/http';

export type Severity = Schemas['AlarmSeverity'];

/** A device (browser) receiving this user's alarms as push notifications. */
export type PushDevice = Schemas['PushSubscription'];

/** What a device receives (the POST .../{id} body), every field given. */
export interface PushChoice {
  deviceName: string;
  /** Empty: every kind. */
  kinds: Schemas['AlarmKind'][];
  minSeverity: Severity;
}

/** POST /api/v1/user/pushSubscriptions: the browser's subscription (an upsert by endpoint). */
export interface PushSubscribeRequest extends PushChoice {
  endpoint: string;
  /** The subscription's keys, base64url as the browser gives them. */
  p256dh: string;
  auth: string;
}

/** Codes a form shows itself: a bad field, the limit, a device removed meanwhile. */
const handledCodes = [
  ErrorCode.InvalidParameter,
  ErrorCode.PushSubscriptionLimit,
  ErrorCode.PushSubscriptionMissing,
];

export const pushKeys = {
  devices: [...userKeys.all, 'pushSubscriptions'] as const,
};

export const pushDevicesQuery = {
  queryKey: pushKeys.devices,
  queryFn: () => api.get('/api/v1/user/pushSubscriptions'),
};

/** The portal's VAPID public key (base64url); failing: push is not available here. */
export const pushKey = () => api.get('/api/v1/user/push/key', { silent: true });

export const subscribePush = (body: PushSubscribeRequest) =>
  api.post('/api/v1/user/pushSubscriptions', { body, handledCodes });

export const updatePush = (id: number, body: PushChoice) =>
  api.post('/api/v1/user/pushSubscriptions/{id}', { path: { id }, body, handledCodes });

export const deletePush = (id: number) =>
  api.post('/api/v1/user/pushSubscriptions/{id}/delete', { path: { id } });

export const testPush = (id: number) =>
  api.post('/api/v1/user/pushSubscriptions/{id}/test', { path: { id } });
