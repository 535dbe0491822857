import { QuestionCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Row, Skeleton, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { liveClass } from '@/shared/devices/live';
import { formatNumber } from '@/shared/format/number';
import { formatEnergy, formatPower } from '@/shared/format/units';
import { generationUseQuery, realtimeQuery } from './api';
import { powerRatio } from './format';

function Figure({
  label,
  value,
  testId,
  stale,
}: {
  label: ReactNode;
  value: string;
  testId: string;
  stale?: boolean;
}) {
  return (
    <div className={liveClass(stale, 'overview-figure')} data-stale={stale ? 'true' : undefined}>
      <Typography.Text type="secondary" className="overview-figure-label">
        {label}
      </Typography.Text>
      <span className="overview-figure-value" data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

/** Columns of a figure: two a row on a phone, three on wider screens. */
const SPAN = { xs: 12, sm: 8 } as const;

/**
 * Today's figures and income, this month, this year and all time (refreshed every 30 s), and
 * where today's energy went; the battery's charge and discharge only on a storage plant. The
 * live figures (current power and its ratio to the capacity) are greyed once stale.
 */
export function TodayCard({ plantId, storage }: { plantId: number; storage: boolean }) {
  const { t } = useTranslation();
  const rt = useQuery(realtimeQuery(plantId));
  const use = useQuery(generationUseQuery(plantId));
  const stale = rt.data?.stale ?? false;
  return (
    <Card title={t('overview.today.title')} data-testid="today-card">
      {rt.isError ? (
        <Alert type="warning" showIcon message={t('overview.loadFailed')} />
      ) : !rt.data ? (
        <Skeleton active />
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={12} sm={12}>
            <Figure
              label={t('overview.today.power')}
              value={formatPower(rt.data.pac)}
              testId="today-pac"
              stale={stale}
            />
          </Col>
          <Col xs={12} sm={12}>
            <Figure
              label={
                <Tooltip title={t('overview.today.powerRatioHint')}>
                  <span>
                    {t('overview.today.powerRatio')} <QuestionCircleOutlined />
                  </span>
                </Tooltip>
              }
              value={powerRatio(rt.data.efficiency, rt.data.totalPower)}
              testId="today-power-ratio"
              stale={stale}
            />
          </Col>
          <Col {...SPAN}>
            <Figure
              label={t('overview.today.energy')}
              value={formatEnergy(rt.data.etoday)}
              testId="today-etoday"
            />
          </Col>
          <Col {...SPAN}>
            <Figure
              label={t('overview.today.income')}
              value={`${rt.data.currency.text ?? ''} ${formatNumber(rt.data.income, 2)}`.trim()}
              testId="today-income"
            />
          </Col>
          <Col {...SPAN}>
            <Figure
              label={t('overview.today.month')}
              value={formatEnergy(rt.data.emonth)}
              testId="today-emonth"
            />
          </Col>
          <Col {...SPAN}>
            <Figure
              label={t('overview.today.year')}
              value={formatEnergy(rt.data.eyear)}
              testId="today-eyear"
            />
          </Col>
          <Col {...SPAN}>
            <Figure
              label={t('overview.today.total')}
              value={formatEnergy(rt.data.etotal)}
              testId="today-etotal"
            />
          </Col>
          {use.data && (
            <>
              <Col {...SPAN}>
                <Figure
                  label={t('overview.use.load')}
                  value={formatEnergy(use.data.load)}
                  testId="use-load"
                />
              </Col>
              {storage && (
                <>
                  <Col {...SPAN}>
                    <Figure
                      label={t('overview.use.charge')}
                      value={formatEnergy(use.data.batteryCharge)}
                      testId="use-charge"
                    />
                  </Col>
                  <Col {...SPAN}>
                    <Figure
                      label={t('overview.use.discharge')}
                      value={formatEnergy(use.data.batteryDischarge)}
                      testId="use-discharge"
                    />
                  </Col>
                </>
              )}
              <Col {...SPAN}>
                <Figure
                  label={t('overview.use.sell')}
                  value={formatEnergy(use.data.gridSell)}
                  testId="use-sell"
                />
              </Col>
              <Col {...SPAN}>
                <Figure
                  label={t('overview.use.buy')}
                  value={formatEnergy(use.data.gridBuy)}
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
