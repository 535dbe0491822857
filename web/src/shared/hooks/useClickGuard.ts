import { useCallback, useEffect, useRef, useState } from 'react';

export const CLICK_GUARD_MS = 3000;

/**
 * The double-click guard (docs/overview.md): after a click the action is disabled for `ms`
 * milliseconds; clicks meanwhile are ignored. Returns the guarded action and whether it is locked.
 */
export function useClickGuard<A extends unknown[]>(
  action: (...args: A) => void,
  ms: number = CLICK_GUARD_MS,
): [(...args: A) => void, boolean] {
  const [locked, setLocked] = useState(false);
  const lockedRef = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const guarded = useCallback(
    (...args: A) => {
      if (lockedRef.current) return;
      lockedRef.current = true;
      setLocked(true);
      timer.current = setTimeout(() => {
        lockedRef.current = false;
        setLocked(false);
      }, ms);
      action(...args);
    },
    [action, ms],
  );
  return [guarded, locked];
}
