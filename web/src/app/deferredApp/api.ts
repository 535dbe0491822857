import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalApi } from 'antd/es/modal/useModal';
import type { NotificationInstance } from 'antd/es/notification/interface';

/** What antd's `App.useApp()` gives: toasts, notifications, dialogs. */
export interface AppApi {
  message: MessageInstance;
  notification: NotificationInstance;
  modal: ModalApi;
}

type Kind = keyof AppApi;
type Call = (api: AppApi) => unknown;

let real: AppApi | null = null;
const waiting: Call[] = [];
let mount: () => void = () => undefined;

/** DeferredApp renders the holders (holders.tsx) when this is first called. */
export function onFirstUse(render: () => void): void {
  mount = render;
  // a screen's effect may have asked before this one ran (children's effects run first)
  if (waiting.length) render();
}

/** The holders are up: run what was asked meanwhile, in order. */
export function setRealApi(api: AppApi): void {
  real = api;
  for (const call of waiting.splice(0)) call(api);
}

function later<T>(call: (api: AppApi) => T): Promise<T> {
  return new Promise<T>((resolve) => {
    waiting.push((api) => resolve(call(api)));
    mount();
  });
}

type Fn = (...args: unknown[]) => unknown;
const method = (api: AppApi, kind: Kind, name: string): Fn =>
  (api[kind] as unknown as Record<string, Fn>)[name] as Fn;

/** message.open/success/...: a close function that is also a promise of the message's end. */
function messageCall(name: string): Fn {
  return (...args) => {
    if (real) return method(real, 'message', name)(...args);
    const handle = later(
      (api) => method(api, 'message', name)(...args) as PromiseLike<boolean> & (() => void),
    );
    const close = () => void handle.then((h) => h());
    close.then = (done?: (v: boolean) => unknown, failed?: (e: unknown) => unknown) =>
      handle.then((h) => new Promise<boolean>((r) => h.then(r))).then(done, failed);
    return close;
  };
}

/** modal.confirm/...: destroy, update and the promise of the answer, as the real handle. */
function modalCall(name: string): Fn {
  return (...args) => {
    if (real) return method(real, 'modal', name)(...args);
    type Handle = { destroy(): void; update(c: unknown): void; then: PromiseLike<boolean>['then'] };
    const handle = later((api) => method(api, 'modal', name)(...args) as Handle);
    return {
      destroy: () => void handle.then((h) => h.destroy()),
      update: (config: unknown) => void handle.then((h) => h.update(config)),
      then: (done?: (v: boolean) => unknown, failed?: (e: unknown) => unknown) =>
        handle.then((h) => new Promise<boolean>((r) => h.then(r))).then(done, failed),
    };
  };
}

/** notification.*, message.destroy: nothing to give back. */
function plainCall(kind: Kind, name: string): Fn {
  return (...args) => {
    if (real) return method(real, kind, name)(...args);
    void later((api) => method(api, kind, name)(...args));
    return undefined;
  };
}

const object = (names: string[], make: (name: string) => Fn) =>
  Object.fromEntries(names.map((n) => [n, make(n)]));

/**
 * Stand-ins for antd's App API until its holders are rendered: the first call loads them and
 * runs once they are up (the first toast or dialog after a page load comes a moment later).
 */
export const deferredApi = {
  message: {
    ...object(['open', 'success', 'error', 'info', 'warning', 'loading'], messageCall),
    destroy: plainCall('message', 'destroy'),
  },
  notification: object(['open', 'success', 'error', 'info', 'warning', 'destroy'], (n) =>
    plainCall('notification', n),
  ),
  modal: object(['confirm', 'info', 'success', 'error', 'warning'], modalCall),
} as unknown as AppApi;
