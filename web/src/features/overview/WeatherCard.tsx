import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Skeleton, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { MISSING } from '@/shared/format/number';
import { useCurrentUser } from '@/shared/user';
import { devicesQuery, weatherQuery } from './api';
import { formatTemp } from './format';

/**
 * The weather at the plant: from its weather station when it has one; sunrise and sunset are
 * always known (computed from the position).
 */
export function WeatherCard({ plantId, today }: { plantId: number; today: Dayjs }) {
  const { t } = useTranslation();
  const unit = useCurrentUser().data?.tempUnit ?? 'C';
  const q = useQuery(weatherQuery(plantId, today.format('YYYY-MM-DD')));
  const hasStation = useQuery(devicesQuery(plantId)).data?.some(
    (d) => d.family === 'weather_station',
  );
  const w = q.data?.currWea;
  const show = (v: string | null | undefined) => v ?? MISSING;
  return (
    <Card title={t('overview.weather.title')} data-testid="weather-card">
      {q.isError ? (
        <Alert type="warning" showIcon message={t('overview.loadFailed')} />
      ) : !q.data ? (
        <Skeleton active />
      ) : (
        <>
          {!w?.currTemp && (
            <Typography.Paragraph type="secondary" data-testid="weather-no-station">
              {t(hasStation ? 'overview.weather.stale' : 'overview.weather.noStation')}
            </Typography.Paragraph>
          )}
          {/* One column where two would break numbers apart ("16 / .8 / °C"). */}
          <Descriptions column={{ xs: 1, sm: 2, lg: 1, xxl: 2 }} size="small">
            <Descriptions.Item label={t('overview.weather.desc')}>
              {show(w?.desc)}
            </Descriptions.Item>
            <Descriptions.Item label={t('overview.weather.temp')}>
              <span data-testid="weather-temp">{formatTemp(w?.currTemp, unit)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('overview.weather.range')}>
              {w?.tempMinC
                ? `${formatTemp(w.tempMinC, unit)} / ${formatTemp(w.tempMaxC, unit)}`
                : MISSING}
            </Descriptions.Item>
            <Descriptions.Item label={t('overview.weather.wind')}>
              {w?.windSpeed
                ? `${w.windSpeed} m/s ${w.windDirection ? `${w.windDirection}°` : ''}`.trim()
                : MISSING}
            </Descriptions.Item>
            <Descriptions.Item label={t('overview.weather.sunrise')}>
              <span data-testid="weather-sunrise">{show(w?.sunrise)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('overview.weather.sunset')}>
              {show(w?.sunset)}
            </Descriptions.Item>
          </Descriptions>
        </>
      )}
    </Card>
  );
}
