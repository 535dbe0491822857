import { formatEnergy } from '@/shared/format/units';

/**
 * Energy sent in kWh, shown by the one unit formatter (`shared/format/units`): 83.2 kWh stays
 * "83.2 kWh", 1339 kWh reads "1.3 MWh" (never "1.3 kkWh").
 */
export function energyText(kwh: string | number | null | undefined): string {
  return formatEnergy(kwh);
}
