import { StatusCode } from '@/shared/ui/status';

/**
 * The status a screen shows: Offline as soon as the device's values are stale (the server's
 * `stale`, by the same bound that turns it offline), even before the periodic status job has
 * written it, so a silent device never reads Normal or Upgrading beside greyed values.
 */
export function shownStatus(status: number, stale: boolean | null | undefined): number {
  return stale ? StatusCode.offline : status;
}

/** The class that greys live values once they are stale (see stale.css). */
export const STALE_CLASS = 'live-stale';

/** `className` for a block of live values. */
export function liveClass(stale: boolean | null | undefined, base = ''): string {
  return [base, stale ? STALE_CLASS : ''].filter(Boolean).join(' ');
}
