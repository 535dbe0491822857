import { Enums } from '@/shared/api/enums.gen';
import { Limits } from '@/shared/api/limits.gen';
import { api } from '@/shared/api/client';
import { userKeys } from '@/shared/api/keys';
import type { Schemas } from '@/shared/api/schema';
import { ErrorCode } from '@/shared/http';
import type { Check } from '@/shared/validators';

/** A webhook endpoint as its owner sees it (the secret only as a hint). */
export type Webhook = Schemas['Webhook'];
export type WebhookRequest = Schemas['WebhookRequest'];
export type DeliveryAttempt = Schemas['DeliveryAttempt'];
export type TestResult = Schemas['TestResult'];
export type AlarmKind = Schemas['AlarmKind'];

/** Every alarm kind an endpoint may filter on, in the server's order. */
export const ALARM_KINDS = Enums.AlarmKind;
export const URL_MAX = Limits.WebhookRequest.url.maxLength;

/** `https://` or `http://` with a host: the server checks the rest (and where it points). */
export function webhookUrl(v: unknown): Check {
  const s = typeof v === 'string' ? v.trim() : '';
  const ok = /^https?:\/\/[^\s/?#]+\S*$/i.test(s) && s.length <= URL_MAX;
  return ok ? null : { key: 'webhooks.urlInvalid' };
}

/** At most this many endpoints per user (the server answers 1101 past it). */
export const MAX_WEBHOOKS = 5;
export const LOG_PAGE_SIZE = 10;

/** Codes a form shows itself: a bad field, the limit, an endpoint gone meanwhile. */
const handledCodes = [ErrorCode.InvalidParameter, ErrorCode.WebhookLimit, ErrorCode.WebhookMissing];

export const webhooksQuery = {
  queryKey: userKeys.webhooks,
  queryFn: () => api.get('/api/v1/user/webhooks'),
};

export const createWebhook = (body: WebhookRequest) =>
  api.post('/api/v1/user/webhooks', { body, handledCodes });

export const updateWebhook = (id: number, body: WebhookRequest) =>
  api.post('/api/v1/user/webhooks/{id}', { path: { id }, body, handledCodes });

export const deleteWebhook = (id: number) =>
  api.post('/api/v1/user/webhooks/{id}/delete', { path: { id } });

export const rotateSecret = (id: number) =>
  api.post('/api/v1/user/webhooks/{id}/secret', { path: { id } });

export const testWebhook = (id: number) =>
  api.post('/api/v1/user/webhooks/{id}/test', { path: { id } });

export const deliveriesQuery = (id: number, page: number) => ({
  queryKey: userKeys.webhookLog(id, page),
  queryFn: () =>
    api.get('/api/v1/user/webhooks/{id}/deliveries', {
      path: { id },
      query: { page, limit: LOG_PAGE_SIZE },
    }),
});
