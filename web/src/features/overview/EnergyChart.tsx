import { api } from '@/shared/api/client';
import { useQuery } from '@tanstack/react-query';
import { DownloadOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Empty,
  Segmented,
  Skeleton,
  Space,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart, useAxisStyle, withAxisStyle } from '@/shared/charts';
import { ApiError } from '@/shared/http';
import { energyQuery, type Period } from './api';
import { formatEnergy } from '@/shared/format/units';
import { formatNumber } from '@/shared/format/number';
import { chartOption, hasData, predictedRatio } from './chart';
import { downloadRange } from './format';

const PERIODS: Period[] = ['day', 'month', 'year', 'total'];
const FORMAT: Record<Period, string> = {
  day: 'YYYY-MM-DD',
  month: 'YYYY-MM',
  year: 'YYYY',
  total: '',
};

/**
 * The day curve (PV, load, grid, battery power and SOC on a second axis) on a time axis in the
 * plant's zone, with a date picker, and the month, year and total energy bars. Times are the
 * plant's local times (the server sends them so); `today` is the plant's current date. The
 * period and date are the page's (the Performance card follows them).
 */
export function EnergyChart({
  plantId,
  today,
  zone,
  period,
  date,
  onPeriod,
  onDate,
}: {
  plantId: number;
  today: Dayjs;
  zone: string;
  period: Period;
  date: Dayjs;
  onPeriod: (p: Period) => void;
  onDate: (d: Dayjs) => void;
}) {
  const { t } = useTranslation();
  const axis = useAxisStyle();
  const param = period === 'total' ? '' : date.format(FORMAT[period]);
  const q = useQuery(energyQuery(plantId, period, param));
  const { message } = App.useApp();
  const [downloading, setDownloading] = useState(false);
  const range = downloadRange(period, date, today);
  const download = () => {
    if (!range) return;
    setDownloading(true);
    api
      .download(
        '/api/v1/plant/generation/download',
        { query: { id: String(plantId), startDate: range[0], endDate: range[1] } },
        `generation_${range[0]}_${range[1]}.xlsx`,
      )
      .catch((e: unknown) =>
        message.error(e instanceof ApiError ? e.message : t('overview.loadFailed')),
      )
      .finally(() => setDownloading(false));
  };

  const option = useMemo(() => {
    if (!q.data) return null;
    return withAxisStyle(
      chartOption({
        infos: q.data.infos,
        period,
        name: (label) => t(`overview.series.${label}`, { defaultValue: label }),
        day: date.format('YYYY-MM-DD'),
        zone,
      }),
      axis,
    );
  }, [q.data, period, t, axis, date, zone]);

  const ratio =
    period === 'month'
      ? predictedRatio(q.data?.infos)
      : period === 'year'
        ? predictedRatio(q.data?.infos, {
            time: today.format('YYYY-MM'),
            share: today.date() / today.daysInMonth(),
          })
        : null;

  const picker =
    period === 'total' ? null : (
      <DatePicker
        allowClear={false}
        picker={period === 'day' ? 'date' : period}
        value={date}
        onChange={(d) => d && onDate(d)}
        disabledDate={(d) => d.isAfter(today, 'day')}
        aria-label={t('overview.chart.date')}
        data-testid="chart-date"
      />
    );

  // The controls sit in the body, not the card's header: on a phone the header would squeeze
  // the title down to "P...".
  return (
    <Card title={t('overview.chart.title')} data-testid="energy-chart">
      <Space style={{ marginBottom: 12 }} wrap>
        <Segmented
          value={period}
          onChange={(v) => onPeriod(v as Period)}
          options={PERIODS.map((p) => ({ value: p, label: t(`overview.chart.${p}`) }))}
          data-testid="chart-period"
        />
        {picker}
        {range && (
          <Button
            icon={<DownloadOutlined />}
            loading={downloading}
            onClick={download}
            data-testid="chart-download"
          >
            {t('overview.chart.download')}
          </Button>
        )}
      </Space>
      {q.isError ? (
        <Alert type="warning" showIcon message={t('overview.loadFailed')} />
      ) : !q.data || !option ? (
        <Skeleton active />
      ) : !hasData(q.data.infos) ? (
        <Empty description={t('overview.chart.empty')} data-testid="chart-empty" />
      ) : (
        <div data-testid={`chart-${period}`}>
          {ratio && (
            <Typography.Text
              type="secondary"
              data-testid="chart-predicted-ratio"
              data-ratio={ratio.ratio.toFixed(1)}
            >
              {t('overview.chart.predictedRatio', {
                actual: formatEnergy(ratio.actual),
                predicted: formatEnergy(ratio.predicted),
                ratio: `${formatNumber(ratio.ratio, 1)} %`,
              })}
            </Typography.Text>
          )}
          <EChart option={option} height={320} ariaLabel={t(`overview.chart.${period}`)} />
        </div>
      )}
    </Card>
  );
}
