/**
 * The browser's part of push notifications (docs/pwa.md, "Push"): whether this browser can,
 * the permission, and the subscription with the portal's VAPID key.
 */
import type { PushSubscribeRequest, PushChoice } from './pushApi';

export type PushSupport = 'supported' | 'unsupported' | 'ios-browser';

/** Push needs a service worker, the Push API and notifications (iOS: only the installed app). */
export function pushSupport(): PushSupport {
  const ok = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  if (ok) return 'supported';
  return /iphone|ipad/i.test(navigator.userAgent) ? 'ios-browser' : 'unsupported';
}

export function notificationPermission(): NotificationPermission {
  return 'Notification' in window ? Notification.permission : 'denied';
}

/** A base64url text (the VAPID key as the portal sends it) as bytes. */
export function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** A name to start from: the browser and the system ("Chrome · Android"); the user may change it. */
export function guessDeviceName(userAgent: string): string {
  const system = /android/i.test(userAgent)
    ? 'Android'
    : /iphone|ipad/i.test(userAgent)
      ? 'iOS'
      : /mac os/i.test(userAgent)
        ? 'macOS'
        : /windows/i.test(userAgent)
          ? 'Windows'
          : /linux/i.test(userAgent)
            ? 'Linux'
            : '';
  const browser = /edg\//i.test(userAgent)
    ? 'Edge'
    : /firefox|fxios/i.test(userAgent)
      ? 'Firefox'
      : /chrome|crios|chromium/i.test(userAgent)
        ? 'Chrome'
        : /safari/i.test(userAgent)
          ? 'Safari'
          : 'Browser';
  return system ? `${browser} · ${system}` : browser;
}

/** Why turning push on stopped: the user refused, or this portal or browser cannot. */
export class PushRefused extends Error {
  constructor(readonly reason: 'denied' | 'unavailable') {
    super(reason);
  }
}

/**
 * Asks for the permission and subscribes this browser with the portal's key; answers the body
 * of POST /api/v1/user/pushSubscriptions. An existing subscription made with another key is
 * replaced (the portal's key changed).
 */
export async function subscribeBrowser(
  publicKey: string,
  choice: PushChoice,
): Promise<PushSubscribeRequest> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushRefused('denied');
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) throw new PushRefused('unavailable');
  const key = base64UrlBytes(publicKey);
  const existing = await registration.pushManager.getSubscription();
  if (existing && !sameKey(existing.options?.applicationServerKey ?? null, key)) {
    await existing.unsubscribe();
  }
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  const json = subscription.toJSON();
  return {
    ...choice,
    endpoint: subscription.endpoint,
    p256dh: json.keys?.p256dh ?? '',
    auth: json.keys?.auth ?? '',
  };
}

function sameKey(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a) return true;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}
