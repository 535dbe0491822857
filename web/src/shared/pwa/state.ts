/**
 * What the shell tells the user about the installed app (docs/pwa.md): that the figures shown
 * are the service worker's copies from an earlier visit (offline), and that a new version
 * waits. Kept tiny and free of React: the http client feeds it on every answer.
 */

type Listener = () => void;

export interface PwaState {
  /** ISO time of the oldest cached answer shown since the network last answered, or null. */
  staleSince: string | null;
  /** Set when a new version waits: calling it loads that version. */
  update: (() => void) | null;
}

let state: PwaState = { staleSince: null, update: null };
const listeners = new Set<Listener>();
let refetch: () => Promise<unknown> = () => Promise.resolve();
let recovering = false;
let staleWhileRecovering = false;

function set(next: Partial<PwaState>): void {
  state = { ...state, ...next };
  listeners.forEach((l) => l());
}

export const pwaState = {
  get: (): PwaState => state,
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** The shell's way to reload what the screens show (react-query's invalidate). */
export function setRefetch(fn: () => Promise<unknown>): void {
  refetch = fn;
}

export function offerUpdate(update: (() => void) | null): void {
  set({ update });
}

/**
 * Every API answer: `staleAt` is its `X-Portal-Stale` time when the service worker answered
 * from its cache, null when the network answered. Back online the banner stays until the
 * screens have refetched: until then they still show the cached figures.
 */
export function answered(staleAt: string | null): void {
  if (staleAt !== null) {
    if (recovering) staleWhileRecovering = true;
    if (!state.staleSince || staleAt < state.staleSince) set({ staleSince: staleAt });
    return;
  }
  if (!state.staleSince || recovering) return;
  recovering = true;
  staleWhileRecovering = false;
  void refetch()
    .catch(() => undefined)
    .then(() => {
      recovering = false;
      if (!staleWhileRecovering) set({ staleSince: null });
    });
}

/** Tests: back to a page that has shown nothing offline (unused by the app, so not built in). */
export function resetPwaState(): void {
  state = { staleSince: null, update: null };
  recovering = false;
  staleWhileRecovering = false;
  refetch = () => Promise.resolve();
  listeners.forEach((l) => l());
}
