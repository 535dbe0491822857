import { useCallback, useEffect, useRef, useState } from 'react';

export const CLICK_GUARD_MS = 3000;

/**
 * The double-click guard (docs/overview.md): after a click the action is disabled for `ms`
 * milliseconds; clicks meanwhile are ignored. Returns the guarded action, which answers the
 * action's result or `undefined` when the click was ignored, and whether it is locked.
 * Buttons use it through `SubmitButton`, `GuardedModal` and `GuardedPopconfirm` (shared/ui).
 */
export function useClickGuard<A extends unknown[], R = void>(
  action: (...args: A) => R,
  ms: number = CLICK_GUARD_MS,
): [(...args: A) => R | undefined, boolean] {
  const [locked, setLocked] = useState(false);
  const lockedRef = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const guarded = useCallback(
    (...args: A): R | undefined => {
      if (lockedRef.current) return undefined;
      lockedRef.current = true;
      setLocked(true);
      timer.current = setTimeout(() => {
        lockedRef.current = false;
        setLocked(false);
      }, ms);
      return action(...args);
    },
    [action, ms],
  );
  return [guarded, locked];
}
