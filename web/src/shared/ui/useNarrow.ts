import { useCallback, useSyncExternalStore } from 'react';

/**
 * Phone widths: below antd's `md` breakpoint (768 px). Read synchronously from matchMedia, so
 * the first render already has the phone layout (antd's Grid.useBreakpoint answers only after
 * an effect, which flashes the desktop frame on a phone).
 */
export const NARROW_QUERY = '(max-width: 767.98px)';

/** Whether a media query matches now; re-renders when that changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}

export function useNarrow(): boolean {
  return useMediaQuery(NARROW_QUERY);
}

/** The system's "reduce motion" setting (an accessibility option of every desktop and phone). */
const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** Whether the user asked for less motion: antd's transitions and the charts' animations stop. */
export function useReducedMotion(): boolean {
  return useMediaQuery(REDUCED_MOTION_QUERY);
}
