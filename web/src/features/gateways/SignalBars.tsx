import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/shared/format/number';
import { signalBars, signalUnit } from './signal';

/** Four bars, as many lit as the signal allows; the reported value in the tooltip. */
export function SignalBars({ signal }: { signal: number | null }) {
  const { t } = useTranslation();
  const bars = signalBars(signal);
  if (bars === null || signal === null) return <span>{MISSING}</span>;
  const label = t('gateways.signalValue', { value: signal, unit: signalUnit(signal) });
  return (
    <Tooltip title={label}>
      <span
        role="img"
        aria-label={label}
        data-testid="signal-bars"
        data-bars={bars}
        style={{ display: 'inline-flex', alignItems: 'flex-end', gap: 2, height: 14 }}
      >
        {[1, 2, 3, 4].map((n) => (
          <span
            key={n}
            style={{
              width: 4,
              height: 3 + n * 2.5,
              borderRadius: 1,
              background:
                n <= bars ? 'var(--ant-color-success, #22c55e)' : 'rgba(148,163,184,0.35)',
            }}
          />
        ))}
      </span>
    </Tooltip>
  );
}
