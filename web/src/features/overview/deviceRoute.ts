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
