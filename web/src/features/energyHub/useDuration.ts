import { useTranslation } from 'react-i18next';
import { formatMinutes } from './time';

/** "2 h", "1 h 30 min", "45 min" in the reader's language. */
export function useDuration(): (minutes: number) => string {
  const { t } = useTranslation();
  return (minutes) => {
    const { h, m } = formatMinutes(minutes);
    if (h && m) return t('energyHub.hoursMinutes', { h, m });
    if (h) return t('energyHub.hours', { h });
    return t('energyHub.minutes', { m });
  };
}

/**
 * What an event asks for: a discharge power, a cap on the power sent to the grid, or a charge
 * from the grid (0 kW: the battery holds its charge).
 */
export function usePower(): (e: { kind: string; targetKw: number }) => string {
  const { t } = useTranslation();
  return (e) => {
    if (e.kind === 'exportLimit') return t('energyHub.exportLimitKw', { kw: e.targetKw });
    if (e.kind === 'charge')
      return e.targetKw > 0
        ? t('energyHub.chargeKwValue', { kw: e.targetKw })
        : t('energyHub.holdCharge');
    return t('energyHub.dischargeKwValue', { kw: e.targetKw });
  };
}
