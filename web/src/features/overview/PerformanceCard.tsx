import { QuestionCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Row, Skeleton, Tooltip, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/shared/format/number';
import { formatEnergy } from '@/shared/format/units';
import { figuresQuery, type Period, type PlantFigures } from './api';
import { FIGURE_KEYS, figuresDate, formatFigure, referenceBasis, type FigureKey } from './figures';
import './texts';

/** Columns of a figure: two a row on a phone, three on a tablet, all seven in a row wide. */
const SPAN = { xs: 12, sm: 8, lg: 6, xxl: 3 } as const;

function Tile({
  k,
  label,
  hint,
  value,
  note,
  figure,
}: {
  k: FigureKey;
  label: string;
  hint: ReactNode;
  value: string;
  note?: string;
  figure: PlantFigures[FigureKey];
}) {
  return (
    <div
      className="overview-figure"
      data-testid={`figure-${k}`}
      data-value={figure.value === null ? '' : String(figure.value)}
      data-basis={figure.basis}
    >
      <Tooltip title={hint}>
        <Typography.Text type="secondary" className="overview-figure-label" tabIndex={0}>
          {label} <QuestionCircleOutlined />
        </Typography.Text>
      </Tooltip>
      <span className="overview-figure-value" data-testid={`figure-${k}-value`}>
        {value}
      </span>
      {note && (
        <Typography.Text type="secondary" className="overview-figure-note">
          {note}
        </Typography.Text>
      )}
    </div>
  );
}

/**
 * The plant figures (docs/figures.md) of the day, month or year the energy chart shows: yields
 * and performance ratio (IEC 61724-1), availability, self-consumption and self-sufficiency,
 * CO2 avoided. Each says in a tooltip how it is computed and from what; a missing one is "--".
 */
export function PerformanceCard({
  plantId,
  period,
  date,
}: {
  plantId: number;
  period: Period;
  date: Dayjs;
}) {
  const { t } = useTranslation();
  const param = figuresDate(period, date);
  const q = useQuery({ ...figuresQuery(plantId, param ?? ''), enabled: param !== null });

  const body = (f: PlantFigures) => {
    const reference = referenceBasis(f);
    const referenceHint = (
      <>
        {reference === 'station' && <p>{t('overview.figures.stationHint')}</p>}
        {reference !== null && reference !== 'station' && f.orientation && (
          <p>
            {t('overview.figures.clearSkyHint', {
              tilt: formatNumber(f.orientation.tilt),
              azimuth: formatNumber(f.orientation.azimuth),
            })}
          </p>
        )}
        {reference === 'clearSkyAssumed' && <p>{t('overview.figures.assumedHint')}</p>}
      </>
    );
    const factor = formatNumber(f.co2Factor);
    const hints: Record<FigureKey, ReactNode> = {
      specificYield: t('overview.figures.specificYieldHint'),
      referenceYield: (
        <>
          <p>{t('overview.figures.referenceYieldHint')}</p>
          {referenceHint}
        </>
      ),
      performanceRatio: (
        <>
          <p>{t('overview.figures.performanceRatioHint')}</p>
          {referenceHint}
        </>
      ),
      availability: t('overview.figures.availabilityHint'),
      selfConsumption: t('overview.figures.selfConsumptionHint'),
      selfSufficiency: (
        <>
          <p>{t('overview.figures.selfSufficiencyHint')}</p>
          {f.gridCharge !== null && f.gridCharge > 0 && (
            <p>{t('overview.figures.gridCharge', { kwh: formatEnergy(f.gridCharge) })}</p>
          )}
        </>
      ),
      co2Avoided: t('overview.figures.co2Hint', { factor }),
    };
    const notes: Partial<Record<FigureKey, string>> = {
      performanceRatio: reference ? t(`overview.figures.basis.${reference}`) : undefined,
      co2Avoided: t('overview.figures.co2Factor', { factor }),
    };
    return (
      <Row gutter={[16, 16]}>
        {FIGURE_KEYS.map((k) => {
          const figure = f[k];
          return (
            <Col key={k} {...SPAN}>
              <Tile
                k={k}
                label={t(`overview.figures.${k}`)}
                hint={
                  figure.value === null ? (
                    <>
                      {typeof hints[k] === 'string' ? <p>{hints[k]}</p> : hints[k]}
                      <p>{t('overview.figures.missingHint')}</p>
                    </>
                  ) : (
                    hints[k]
                  )
                }
                value={formatFigure(k, figure)}
                note={notes[k]}
                figure={figure}
              />
            </Col>
          );
        })}
      </Row>
    );
  };

  return (
    <Card title={t('overview.figures.title')} data-testid="performance-card">
      {param === null ? (
        <Typography.Text type="secondary" data-testid="performance-total">
          {t('overview.figures.total')}
        </Typography.Text>
      ) : q.isError ? (
        <Alert type="warning" showIcon title={t('overview.loadFailed')} />
      ) : !q.data ? (
        <Skeleton active />
      ) : (
        <div data-testid="performance-figures" data-from={q.data.from} data-to={q.data.to}>
          {body(q.data)}
        </div>
      )}
    </Card>
  );
}
