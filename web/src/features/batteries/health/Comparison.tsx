import { Col, Row, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/shared/format/number';
import {
  cellLabel,
  figure,
  newestMeasured,
  usualCell,
  type BatteryHealth,
  type HealthCell,
} from './model';

function Item({
  id,
  label,
  value,
  basis,
}: {
  id: string;
  label: string;
  value: string;
  basis: ReactNode;
}) {
  return (
    <Col flex="1 1 220px" data-testid={`health-${id}`}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <div className="health-value" data-testid={`health-${id}-value`}>
        {value}
      </div>
      <Typography.Text type="secondary" className="health-basis">
        {basis}
      </Typography.Text>
    </Col>
  );
}

/** What the BMS claims next to what was measured, each with what it is computed from. */
export function Comparison({ h }: { h: BatteryHealth }) {
  const { t } = useTranslation();
  const m = newestMeasured(h);
  const cellName = (c: HealthCell | null) => {
    const label = cellLabel(c);
    return label ? t(label.key, label.values) : MISSING;
  };
  const spread = Math.max(...h.days.map((d) => d.spreadMv ?? -1));
  return (
    <Row gutter={[16, 16]} className="health-compare" data-testid="health-compare">
      <Item
        id="bms"
        label={t('batteries.health.compare.bms')}
        value={`${figure(h.soh, 1, '%')} · ${figure(h.bmsAh, 1, 'Ah')}`}
        basis={t('batteries.health.compare.bmsBasis', { capacity: figure(h.capacityAh, 1, 'Ah') })}
      />
      <Item
        id="measured"
        label={t('batteries.health.compare.measured')}
        value={m ? `${figure(m.measuredAh, 1, 'Ah')} · ${figure(m.measuredKwh, 2, 'kWh')}` : '--'}
        basis={
          m
            ? t('batteries.health.compare.measuredBasis', {
                kind: t(`batteries.health.kind.${m.kind}`),
                from: figure(m.socFrom, 0, '%'),
                to: figure(m.socTo, 0, '%'),
                start: m.start,
                end: m.end,
              })
            : t('batteries.health.compare.measuredNone')
        }
      />
      <Item
        id="ratio"
        label={t('batteries.health.compare.ratio')}
        value={
          m && m.ratioPct !== null && m.ratioPct !== undefined
            ? `${figure(m.ratioPct, 1, '%')} (${(m.differenceAh ?? 0) > 0 ? '+' : ''}${figure(m.differenceAh, 1, 'Ah')})`
            : '--'
        }
        basis={t('batteries.health.compare.ratioBasis')}
      />
      <Item
        id="cycles"
        label={t('batteries.health.compare.cycles')}
        value={`${figure(h.efcTotal, 1)} · ${figure(h.bmsCycles, 0)}`}
        basis={t('batteries.health.compare.cyclesBasis')}
      />
      <Item
        id="spread"
        label={t('batteries.health.compare.spread')}
        value={figure(spread >= 0 ? spread : null, 0, 'mV')}
        basis={t('batteries.health.compare.spreadBasis', {
          high: cellName(usualCell(h.days, 'highCell')),
          low: cellName(usualCell(h.days, 'lowCell')),
        })}
      />
    </Row>
  );
}
