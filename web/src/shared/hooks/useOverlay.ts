import { useEffect, useState } from 'react';

export const OVERLAY_CLOSE_DELAY_MS = 200;

/**
 * The loading overlay (docs/overview.md): shown at once when loading starts, closed 200 ms after
 * the response so that quick answers do not flicker.
 */
export function useOverlay(loading: boolean, delay: number = OVERLAY_CLOSE_DELAY_MS): boolean {
  const [visible, setVisible] = useState(loading);
  if (loading && !visible) setVisible(true);
  useEffect(() => {
    if (loading) return undefined;
    const timer = setTimeout(() => setVisible(false), delay);
    return () => clearTimeout(timer);
  }, [loading, delay]);
  return visible;
}
