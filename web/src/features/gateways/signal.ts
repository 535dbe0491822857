/**
 * Signal strength as 0-4 bars. Gateways report RSSI in dBm (negative, e.g. -61) or, for some
 * modems, a 0-100 quality percentage; `null` when nothing was reported.
 */
export function signalBars(signal: number | null | undefined): number | null {
  if (signal === null || signal === undefined || !Number.isFinite(signal)) return null;
  if (signal < 0) {
    if (signal >= -65) return 4;
    if (signal >= -75) return 3;
    if (signal >= -85) return 2;
    if (signal >= -95) return 1;
    return 0;
  }
  if (signal >= 75) return 4;
  if (signal >= 50) return 3;
  if (signal >= 25) return 2;
  if (signal > 0) return 1;
  return 0;
}

/** The unit a reported signal reads in. */
export function signalUnit(signal: number): 'dBm' | '%' {
  return signal < 0 ? 'dBm' : '%';
}
