import { StatusCode, statusOf, SWITCHED_OFF, type ShownState } from '@/shared/ui/status';

/**
 * The status a screen shows: Offline as soon as the device's values are stale (the server's
 * `stale`, by the same bound that turns it offline), even before the periodic status job has
 * written it, so a silent device never reads Normal or Upgrading beside greyed values.
 */
export function shownStatus(status: number, stale: boolean | null | undefined): number {
  return stale ? StatusCode.offline : status;
}

/**
 * The badge of a device whose power state is known (inverters): as {@link shownStatus}, but an
 * inverter that would read Normal while it reports itself switched off reads Off, so a
 * switched-off inverter never shows green. A warning or fault still wins.
 */
export function shownState(
  status: number,
  stale: boolean | null | undefined,
  powerOn: boolean | null | undefined,
): ShownState {
  const s = statusOf(shownStatus(status, stale));
  return s.value === StatusCode.normal && powerOn === false ? SWITCHED_OFF : s;
}

/**
 * A plant's badge, the same in the plant list, on its map and on its overview: as
 * {@link shownStatus}, but a plant that would read Normal while the server says every inverter
 * with fresh data reports itself switched off (`switchedOff` of its list item, map marker and
 * realtime figures; one rule, the server's) reads Off.
 */
export function plantState(
  status: number,
  stale: boolean | null | undefined,
  switchedOff: boolean | null | undefined,
): ShownState {
  return shownState(status, stale, switchedOff ? false : null);
}

/** The class that greys live values once they are stale (see stale.css). */
export const STALE_CLASS = 'live-stale';

/** `className` for a block of live values. */
export function liveClass(stale: boolean | null | undefined, base = ''): string {
  return [base, stale ? STALE_CLASS : ''].filter(Boolean).join(' ');
}
