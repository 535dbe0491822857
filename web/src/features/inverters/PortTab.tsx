import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  DatePicker,
  Descriptions,
  Empty,
  Flex,
  Result,
  Segmented,
  Skeleton,
  Table,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { todayIn } from '@/shared/format/time';
import { useTranslation } from 'react-i18next';
import { liveClass } from '@/shared/devices/live';
import { StaleNotice } from '@/shared/devices/StaleNotice';
import { EChart, useAxisStyle, withAxisStyle, type ChartOption } from '@/shared/charts';
import { formatNumber, MISSING } from '@/shared/format/number';
import { useCurrentUser } from '@/shared/user';
import { realtimeQuery, seriesQuery, type PvInput, type Port, type Span, type Vip } from './api';
import { chartOption, type TempUnit } from './chart';
import { REALTIME_FIELDS, seriesName, showValue, vipRows } from './fields';

const SPANS: Span[] = ['day', 'month', 'year', 'total'];
const PICKER: Record<Span, 'date' | 'month' | 'year' | undefined> = {
  day: 'date',
  month: 'month',
  year: 'year',
  total: undefined,
};

const text = (v: string | null | undefined) =>
  v === null || v === undefined ? MISSING : formatNumber(v);

/** One tab of the detail screen: the port's values now and its day/month/year/total chart. */
export function PortTab({ port, sn, timezone }: { port: Port; sn: string; timezone: string }) {
  const { t } = useTranslation();
  const temp: TempUnit = useCurrentUser().data?.tempUnit ?? 'C';
  const realtime = useQuery(realtimeQuery(port, sn));
  const data = realtime.data;
  const code = (kind: 'grid' | 'battery', v: number) =>
    t(`inverters.code.${kind}.${v}`, { defaultValue: String(v) });
  const vip = vipRows(data);
  const pv: PvInput[] = data && 'pvIV' in data ? data.pvIV : [];

  return (
    <Flex vertical gap={16}>
      <Card size="small" title={t('inverters.realtime')} data-testid={`realtime-${port}`}>
        {realtime.isError ? (
          <Result
            status="warning"
            title={t('inverters.loadFailed')}
            extra={<Button onClick={() => void realtime.refetch()}>{t('common.refresh')}</Button>}
          />
        ) : realtime.isPending ? (
          <Skeleton active />
        ) : (
          <Flex vertical gap={12}>
            <StaleNotice
              stale={data?.stale === true}
              updateAt={typeof data?.updateAt === 'string' ? data.updateAt : null}
              zone={timezone}
              testId={`stale-${port}`}
            />
            <Descriptions
              size="small"
              column={{ xs: 1, sm: 2, lg: 4 }}
              bordered
              className={liveClass(data?.stale === true)}
              data-stale={data?.stale === true ? 'true' : 'false'}
            >
              {REALTIME_FIELDS[port].map((spec) => (
                <Descriptions.Item
                  key={spec.key + spec.labelKey}
                  label={t(`inverters.field.${spec.labelKey}`)}
                >
                  <span data-testid={`value-${spec.labelKey}`}>
                    {showValue(spec, data, temp, code)}
                  </span>
                </Descriptions.Item>
              ))}
            </Descriptions>
            {port === 'input' && (
              <Table<PvInput>
                size="small"
                rowKey="pvNo"
                pagination={false}
                data-testid="pv-inputs"
                className={liveClass(data?.stale === true)}
                dataSource={pv}
                locale={{ emptyText: <Empty description={t('inverters.noValues')} /> }}
                columns={[
                  { key: 'no', title: t('inverters.pv.no'), render: (_, r) => `PV${r.pvNo}` },
                  {
                    key: 'v',
                    title: t('inverters.pv.voltage'),
                    align: 'right',
                    render: (_, r) => text(r.vpv),
                  },
                  {
                    key: 'i',
                    title: t('inverters.pv.current'),
                    align: 'right',
                    render: (_, r) => text(r.ipv),
                  },
                  {
                    key: 'p',
                    title: t('inverters.pv.power'),
                    align: 'right',
                    render: (_, r) => text(r.ppv),
                  },
                  {
                    key: 'e',
                    title: t('inverters.pv.today'),
                    align: 'right',
                    render: (_, r) => text(r.todayPv),
                  },
                ]}
              />
            )}
            {port !== 'input' && port !== 'battery' && (
              <Table<Vip & { phase: number }>
                size="small"
                rowKey="phase"
                pagination={false}
                data-testid="phases"
                className={liveClass(data?.stale === true)}
                dataSource={vip}
                locale={{ emptyText: <Empty description={t('inverters.noValues')} /> }}
                columns={[
                  {
                    key: 'phase',
                    title: t('inverters.phase.name'),
                    render: (_, r) => `L${r.phase}`,
                  },
                  {
                    key: 'v',
                    title: t('inverters.phase.voltage'),
                    align: 'right',
                    render: (_, r) => text(r.volt),
                  },
                  {
                    key: 'i',
                    title: t('inverters.phase.current'),
                    align: 'right',
                    render: (_, r) => text(r.current),
                  },
                  {
                    key: 'p',
                    title: t('inverters.phase.power'),
                    align: 'right',
                    render: (_, r) => (r.power === null ? MISSING : formatNumber(r.power)),
                  },
                ]}
              />
            )}
          </Flex>
        )}
      </Card>
      <SeriesCard port={port} sn={sn} timezone={timezone} temp={temp} />
    </Flex>
  );
}

function SeriesCard({
  port,
  sn,
  timezone,
  temp,
}: {
  port: Port;
  sn: string;
  timezone: string;
  temp: TempUnit;
}) {
  const { t } = useTranslation();
  const axis = useAxisStyle();
  const [span, setSpan] = useState<Span>('day');
  const [date, setDate] = useState<Dayjs>(() => todayIn(timezone));
  const series = useQuery(seriesQuery(port, span, sn, date.format('YYYY-MM-DD')));
  const infos = useMemo(() => series.data?.infos ?? [], [series.data]);
  const hasData = infos.some((s) => s.records.length > 0);
  const zone = series.data?.timezone ?? timezone;
  const day = series.data?.date ?? date.format('YYYY-MM-DD');
  const option: ChartOption = useMemo(
    () =>
      withAxisStyle(
        chartOption({
          infos,
          span,
          temp,
          name: (l) => seriesName(l, (k, o) => t(k, o)),
          day,
          zone,
        }),
        axis,
      ),
    [infos, span, temp, t, axis, day, zone],
  );

  return (
    <Card size="small" title={t('inverters.history')} data-testid={`series-${port}`}>
      {/* The controls sit in the body: in the header they would squeeze the title on a phone. */}
      <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
        <Segmented
          value={span}
          onChange={(v) => setSpan(v as Span)}
          options={SPANS.map((s) => ({ value: s, label: t(`inverters.span.${s}`) }))}
          data-testid="span"
        />
        {PICKER[span] && (
          <DatePicker
            picker={PICKER[span]}
            value={date}
            allowClear={false}
            onChange={(d) => d && setDate(d)}
            disabledDate={(d) => d.isAfter(todayIn(timezone), 'day')}
            aria-label={t('inverters.date')}
          />
        )}
      </Flex>
      {series.isError ? (
        <Result
          status="warning"
          title={t('inverters.loadFailed')}
          extra={<Button onClick={() => void series.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : series.isPending ? (
        <Skeleton active />
      ) : !hasData ? (
        <Empty description={t('inverters.noData')} />
      ) : (
        <>
          <EChart option={option} height={320} ariaLabel={t('inverters.history')} />
          {span === 'day' && (
            <Typography.Text type="secondary">{t('inverters.timezone', { zone })}</Typography.Text>
          )}
        </>
      )}
    </Card>
  );
}
