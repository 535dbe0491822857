import { useQuery } from '@tanstack/react-query';
import { Card, DatePicker, Grid, Segmented, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { todayIn } from '@/shared/format/time';
import { useTranslation } from 'react-i18next';
import { ChartBody } from '@/shared/devices/DetailParts';
import type { TempUnit } from '@/shared/devices/temp';
import { useAxisStyle, withAxisStyle, type ChartOption } from '@/shared/charts';
import { useCurrentUser } from '@/shared/user';
import { BATTERY, batteryDayQuery } from '../api';
import { dayChartOption } from '../chart';

const VIEWS = {
  socPower: ['soc', 'power'],
  voltageCurrent: ['voltage', 'current'],
  temp: ['temp'],
} as const;
type View = keyof typeof VIEWS;

/** A day's curves of the stack, in three views, in the plant's zone. */
export function DayBlock({ sn, zone }: { sn: string; zone: string }) {
  const { t } = useTranslation();
  const temp: TempUnit = useCurrentUser().data?.tempUnit ?? 'C';
  const axis = useAxisStyle();
  const [date, setDate] = useState<Dayjs>(() => todayIn(zone));
  const [view, setView] = useState<View>('socPower');
  const screens = Grid.useBreakpoint();
  const day = useQuery(batteryDayQuery(sn, date.format('YYYY-MM-DD')));
  const option = useMemo<ChartOption | null>(
    () =>
      day.data
        ? withAxisStyle(
            dayChartOption(
              day.data.infos,
              VIEWS[view],
              temp,
              (l) => t(`batteries.series.${l}`),
              date.format('YYYY-MM-DD'),
              zone,
            ),
            axis,
          )
        : null,
    [day.data, view, temp, t, axis, date, zone],
  );
  // The controls sit in the body: in the card's header they would squeeze the title on a phone.
  return (
    <Card title={t('batteries.day.title')} data-testid="battery-day">
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented
          value={view}
          // stacked on a phone: side by side the three views are wider than the screen
          vertical={screens.sm === false}
          onChange={(v) => setView(v as View)}
          options={(Object.keys(VIEWS) as View[]).map((v) => ({
            value: v,
            label: t(`batteries.day.${v}`),
          }))}
        />
        <DatePicker
          aria-label={t('batteries.day.date')}
          value={date}
          allowClear={false}
          disabledDate={(d) => d.isAfter(todayIn(zone), 'day')}
          onChange={(d) => d && setDate(d)}
        />
      </Space>
      <ChartBody kind={BATTERY} query={day} option={option} label={t('batteries.day.title')} />
      <Typography.Text type="secondary">{t('batteries.day.zone', { zone })}</Typography.Text>
    </Card>
  );
}
