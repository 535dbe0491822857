/** Device and plant statuses (0 offline, 1 normal, 2 warning, 3 fault, 4 upgrading). */
export function statusBadge(
  status: number,
): 'default' | 'success' | 'warning' | 'error' | 'processing' {
  switch (status) {
    case 1:
      return 'success';
    case 2:
      return 'warning';
    case 3:
      return 'error';
    case 4:
      return 'processing';
    default:
      return 'default';
  }
}

/** The device screen of a device, by family (the device screens own these routes). */
export function deviceRoute(family: string, sn: string): string | null {
  const s = encodeURIComponent(sn);
  switch (family) {
    case 'inverter':
      return `/device/inverter/${s}`;
    case 'battery':
      return `/device/battery/${s}`;
    case 'meter':
      return `/device/meter/${s}`;
    case 'weather_station':
      return `/device/weather/${s}`;
    default:
      return null;
  }
}
