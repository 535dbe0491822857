/**
 * How often a screen that shows live state (status, power, last message, online state) asks
 * again. Gateways report every few minutes in the field and every 5 s in the demo; a device
 * that falls silent turns Offline on the server within three upload cycles, and every screen
 * then shows it within one more interval, whichever screen it is.
 */
export const LIVE_REFRESH_MS = 10_000;

/**
 * The options of a query of live state, spread into its `queryOptions`: it refetches every
 * [LIVE_REFRESH_MS] while the tab is visible (a hidden tab pauses) and at once when the window
 * regains focus, so a screen left open never shows an old status.
 */
export const LIVE_QUERY = {
  refetchInterval: LIVE_REFRESH_MS,
  refetchIntervalInBackground: false,
  refetchOnWindowFocus: true,
} as const;
