import { useQuery } from '@tanstack/react-query';
import { DownloadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, DatePicker, Empty, Segmented, Skeleton, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart, useAxisStyle } from '@/shared/charts';
import { ApiError } from '@/shared/http';
import { downloadFile } from '@/shared/http/download';
import { energyQuery, type Period } from './api';
import { chartOption, hasData } from './chart';
import { downloadRange } from './format';

const PERIODS: Period[] = ['day', 'month', 'year', 'total'];
const FORMAT: Record<Period, string> = {
  day: 'YYYY-MM-DD',
  month: 'YYYY-MM',
  year: 'YYYY',
  total: '',
};

/**
 * The day curve (PV, load, grid, battery power and SOC on a second axis) with a date picker,
 * and the month, year and total energy bars. Times are the plant's local times (the server
 * sends them so); `today` is the plant's current date.
 */
export function EnergyChart({ plantId, today }: { plantId: number; today: Dayjs }) {
  const { t } = useTranslation();
  const axis = useAxisStyle();
  const [period, setPeriod] = useState<Period>('day');
  const [date, setDate] = useState<Dayjs>(today);
  const param = period === 'total' ? '' : date.format(FORMAT[period]);
  const q = useQuery(energyQuery(plantId, period, param));
  const { message } = App.useApp();
  const [downloading, setDownloading] = useState(false);
  const range = downloadRange(period, date, today);
  const download = () => {
    if (!range) return;
    setDownloading(true);
    downloadFile(
      '/api/v1/plant/generation/download',
      { id: plantId, startDate: range[0], endDate: range[1] },
      `generation_${range[0]}_${range[1]}.xlsx`,
    )
      .catch((e: unknown) =>
        message.error(e instanceof ApiError ? e.message : t('overview.loadFailed')),
      )
      .finally(() => setDownloading(false));
  };

  const option = useMemo(() => {
    if (!q.data) return null;
    const base = chartOption({
      infos: q.data.infos,
      period,
      name: (label) => t(`overview.series.${label}`, { defaultValue: label }),
      axisNames: { power: 'W', percent: '%', energy: 'kWh' },
    });
    const withAxis = (a: unknown) => ({ ...(a as object), ...axis });
    const yAxis = base.yAxis as unknown[];
    return {
      ...base,
      xAxis: withAxis(base.xAxis),
      yAxis: yAxis.map((y, i) =>
        i === 1 ? { ...withAxis(y), splitLine: { show: false } } : withAxis(y),
      ),
    };
  }, [q.data, period, t, axis]);

  const picker =
    period === 'total' ? null : (
      <DatePicker
        allowClear={false}
        picker={period === 'day' ? 'date' : period}
        value={date}
        onChange={(d) => d && setDate(d)}
        disabledDate={(d) => d.isAfter(today, 'day')}
        aria-label={t('overview.chart.date')}
        data-testid="chart-date"
      />
    );

  return (
    <Card
      title={t('overview.chart.title')}
      data-testid="energy-chart"
      extra={
        <Segmented
          value={period}
          onChange={(v) => setPeriod(v as Period)}
          options={PERIODS.map((p) => ({ value: p, label: t(`overview.chart.${p}`) }))}
          data-testid="chart-period"
        />
      }
    >
      <Space style={{ marginBottom: 12 }} wrap>
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
          <EChart option={option} height={320} ariaLabel={t(`overview.chart.${period}`)} />
        </div>
      )}
    </Card>
  );
}
