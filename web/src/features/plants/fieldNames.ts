/** Field names of the plant form sections (the wizard validates a step by them). */
export const PLANT_TYPES = [1, 2, 3] as const;

/** The browser's IANA time zone, if it can tell. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

export const BASIC_FIELDS = ['name', 'totalPower', 'joinDate', 'type', 'timezone'];

export const LOCATION_FIELDS = ['address', 'lon', 'lat', 'tilt', 'azimuth'];

export const CONTACT_FIELDS = ['principal', 'phone', 'email', 'installer', 'owner'];

export const TARIFF_FIELDS = ['currency', 'valuation', 'price', 'segments', 'tiers', 'invest'];

/** The gateway pair (wizard step and the edit screen's add dialog). */
export const GATEWAY_FIELDS = ['gatewaySn', 'gatewayKey'];
