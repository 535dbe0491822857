import { InfoCircleOutlined } from '@ant-design/icons';
import { Card, Empty, Flex, Segmented, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatEnergy } from '@/shared/format/units';
import { PERIODS, overviewHref, type FleetPeriod, type FleetSummary, type FleetYield } from './api';
import { formatYield } from './format';

function YieldList({ rows, testId }: { rows: FleetYield[]; testId: string }) {
  const { t } = useTranslation();
  return (
    <ol className="fleet-list fleet-ranking" data-testid={testId}>
      {rows.map((y) => (
        <li key={y.plantId} className="fleet-row" data-testid="fleet-yield">
          <div className="fleet-row-main">
            <Link to={overviewHref(y.plantId, y.plantType)} className="fleet-row-name">
              {y.plantName}
            </Link>
            <div className="fleet-row-detail">
              {formatEnergy(y.energyKwh)}
              {' · '}
              {y.capacityKwp === null ? t('fleet.ranking.noCapacity') : `${y.capacityKwp} kWp`}
            </div>
          </div>
          {y.outlier && (
            <Tag
              color={y.outlier === 'low' ? 'error' : 'warning'}
              className="fleet-tag"
              data-testid={`fleet-outlier-${y.outlier}`}
            >
              {t(`fleet.ranking.${y.outlier}`)}
            </Tag>
          )}
          <span className="fleet-yield" data-testid="fleet-yield-value">
            {formatYield(y.specificYield)}
          </span>
        </li>
      ))}
    </ol>
  );
}

/**
 * The plants by specific yield over today, 7 or 30 days: the best, the worst (not already among
 * the best) and those without capacity ("--", never 0), outliers marked by the rule the
 * tooltip states.
 */
export function RankingCard({
  data,
  period,
  onPeriod,
}: {
  data: FleetSummary;
  period: FleetPeriod;
  onPeriod: (period: FleetPeriod) => void;
}) {
  const { t } = useTranslation();
  const r = data.ranking;
  return (
    <Card
      size="small"
      className="fleet-card"
      title={
        <Flex gap={6} align="center" wrap>
          {t('fleet.ranking.title')}
          <Typography.Text type="secondary">{t('fleet.ranking.unit')}</Typography.Text>
          <Tooltip title={t('fleet.ranking.help')}>
            <InfoCircleOutlined aria-label={t('fleet.ranking.help')} data-testid="fleet-rule" />
          </Tooltip>
        </Flex>
      }
      extra={
        <Segmented
          size="small"
          aria-label={t('fleet.ranking.periodLabel')}
          value={period}
          onChange={(v) => onPeriod(v)}
          options={PERIODS.map((p) => ({ value: p, label: t(`fleet.ranking.period.${p}`) }))}
          data-testid="fleet-period"
        />
      }
      data-testid="fleet-ranking"
    >
      <Flex vertical gap={8}>
        {r.median !== null && (
          <Typography.Text type="secondary" data-testid="fleet-median">
            {t('fleet.ranking.median', { value: formatYield(r.median) })}
            {r.lowBelow !== null && r.highAbove !== null && (
              <>
                {' · '}
                {t('fleet.ranking.bounds', {
                  low: formatYield(r.lowBelow),
                  high: formatYield(r.highAbove),
                })}
              </>
            )}
          </Typography.Text>
        )}
        {r.ranked === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('fleet.ranking.none')} />
        ) : (
          <div className="fleet-ranking-columns">
            <div>
              <Typography.Title level={5}>{t('fleet.ranking.best')}</Typography.Title>
              <YieldList rows={r.best} testId="fleet-best" />
            </div>
            {r.worst.length > 0 && (
              <div>
                <Typography.Title level={5}>{t('fleet.ranking.worst')}</Typography.Title>
                <YieldList rows={r.worst} testId="fleet-worst" />
              </div>
            )}
          </div>
        )}
        {r.unrated > 0 && (
          <div>
            <Typography.Title level={5}>
              {t('fleet.ranking.unrated', { count: r.unrated })}
            </Typography.Title>
            <YieldList rows={r.unratedInfos} testId="fleet-unrated" />
          </div>
        )}
      </Flex>
    </Card>
  );
}
