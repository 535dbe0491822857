import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Row, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatCompact, formatNumber, MISSING } from '@/shared/format/number';
import { generationUseQuery, realtimeQuery } from './api';
import { energy } from './format';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="overview-figure">
      <Typography.Text type="secondary">{label}</Typography.Text>
      <span className="overview-figure-value" data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

/**
 * Today's figures and income, this month, this year and all time (refreshed every 30 s); the
 * battery's charge only on a storage plant.
 */
export function TodayCard({ plantId, storage }: { plantId: number; storage: boolean }) {
  const { t } = useTranslation();
  const rt = useQuery(realtimeQuery(plantId));
  const use = useQuery(generationUseQuery(plantId));
  return (
    <Card title={t('overview.today.title')} data-testid="today-card">
      {rt.isError ? (
        <Alert type="warning" showIcon message={t('overview.loadFailed')} />
      ) : !rt.data ? (
        <Skeleton active />
      ) : (
        <Row gutter={[16, 16]}>
          <Col span={12}>
            <Figure
              label={t('overview.today.power')}
              value={formatCompact(rt.data.pac, 'W')}
              testId="today-pac"
            />
          </Col>
          <Col span={12}>
            <Figure
              label={t('overview.today.energy')}
              value={energy(rt.data.etoday)}
              testId="today-etoday"
            />
          </Col>
          <Col span={12}>
            <Figure
              label={t('overview.today.income')}
              value={`${rt.data.currency.text ?? ''} ${formatNumber(rt.data.income, 2)}`.trim()}
              testId="today-income"
            />
          </Col>
          <Col span={12}>
            <Figure
              label={t('overview.today.efficiency')}
              value={
                rt.data.efficiency === null
                  ? MISSING
                  : `${formatNumber(Math.round(rt.data.efficiency * 1000) / 10)} %`
              }
              testId="today-efficiency"
            />
          </Col>
          <Col span={8}>
            <Figure
              label={t('overview.today.month')}
              value={energy(rt.data.emonth)}
              testId="today-emonth"
            />
          </Col>
          <Col span={8}>
            <Figure
              label={t('overview.today.year')}
              value={energy(rt.data.eyear)}
              testId="today-eyear"
            />
          </Col>
          <Col span={8}>
            <Figure
              label={t('overview.today.total')}
              value={energy(rt.data.etotal)}
              testId="today-etotal"
            />
          </Col>
          {use.data && (
            <>
              <Col span={storage ? 6 : 8}>
                <Figure
                  label={t('overview.use.load')}
                  value={energy(use.data.load)}
                  testId="use-load"
                />
              </Col>
              {storage && (
                <Col span={6}>
                  <Figure
                    label={t('overview.use.charge')}
                    value={energy(use.data.batteryCharge)}
                    testId="use-charge"
                  />
                </Col>
              )}
              <Col span={storage ? 6 : 8}>
                <Figure
                  label={t('overview.use.sell')}
                  value={energy(use.data.gridSell)}
                  testId="use-sell"
                />
              </Col>
              <Col span={storage ? 6 : 8}>
                <Figure
                  label={t('overview.use.buy')}
                  value={energy(use.data.gridBuy)}
                  testId="use-buy"
                />
              </Col>
            </>
          )}
        </Row>
      )}
    </Card>
  );
}
