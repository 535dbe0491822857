import { formatCompact, MISSING } from '@/shared/format/number';

/**
 * Energy sent in kWh, shown by the compact rule of SPEC section 9 on its Wh value: 83.2 kWh
 * stays "83.2 kWh", 1339 kWh reads "1.3 MWh" (never "1.3 kkWh").
 */
export function energyText(kwh: string | number | null | undefined): string {
  if (kwh === null || kwh === undefined || kwh === '') return MISSING;
  const n = Number(kwh);
  return Number.isFinite(n) ? formatCompact(n * 1000, 'Wh') : MISSING;
}
