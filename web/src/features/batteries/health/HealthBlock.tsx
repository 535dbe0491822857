import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Col,
  Empty,
  Flex,
  Grid,
  Result,
  Row,
  Segmented,
  Skeleton,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart, useAxisStyle, withAxisStyle } from '@/shared/charts';
import { todayIn } from '@/shared/format/time';
import { batteryHealthQuery } from './api';
import {
  cyclesOption,
  SPANS,
  sohOption,
  spreadOption,
  type BatteryHealth,
  type Span,
} from './model';
import { Comparison } from './Comparison';
import { MeasuredList } from './MeasuredList';
import './texts';

const CHARTS = ['soh', 'cycles', 'spread'] as const;
type Chart = (typeof CHARTS)[number];

/**
 * A battery's health (docs/battery-health.md): the BMS's SOH with the capacities measured over
 * full swings, the cycles and the cell spread over a span of days, and the comparison of what
 * the BMS claims with what was measured.
 */
export default function HealthBlock({ sn, zone }: { sn: string; zone: string }) {
  const { t } = useTranslation();
  const [span, setSpan] = useState<Span>('y1');
  const [chart, setChart] = useState<Chart>('soh');
  const today = todayIn(zone).format('YYYY-MM-DD');
  const health = useQuery(batteryHealthQuery(sn, span, today));
  const screens = Grid.useBreakpoint();
  return (
    <Card title={t('batteries.health.title')} data-testid="battery-health">
      <Flex vertical gap={12}>
        <Segmented
          value={span}
          onChange={(v) => setSpan(v as Span)}
          options={(Object.keys(SPANS) as Span[]).map((s) => ({
            value: s,
            label: t(`batteries.health.span.${s}`),
          }))}
        />
        {health.isError ? (
          <Result
            status="warning"
            title={t('batteries.loadFailed')}
            extra={<Button onClick={() => void health.refetch()}>{t('common.refresh')}</Button>}
          />
        ) : health.isPending ? (
          <Skeleton active />
        ) : health.data.days.length === 0 ? (
          <Empty description={t('batteries.health.empty')} />
        ) : (
          <>
            <Comparison h={health.data} />
            <Segmented
              value={chart}
              // stacked on a phone: side by side the three charts' names are wider than it
              vertical={screens.sm === false}
              onChange={(v) => setChart(v as Chart)}
              options={CHARTS.map((c) => ({ value: c, label: t(`batteries.health.chart.${c}`) }))}
            />
            <HealthChart h={health.data} chart={chart} />
            <MeasuredList cycles={health.data.cycles} />
          </>
        )}
        <Typography.Text type="secondary">{t('batteries.day.zone', { zone })}</Typography.Text>
      </Flex>
    </Card>
  );
}

function HealthChart({ h, chart }: { h: BatteryHealth; chart: Chart }) {
  const { t } = useTranslation();
  const axis = useAxisStyle();
  const option = useMemo(() => {
    const name = (k: string) => t(`batteries.health.series.${k}`);
    const o =
      chart === 'soh'
        ? sohOption(h, { soh: name('soh'), measured: name('measured') })
        : chart === 'cycles'
          ? cyclesOption(h, { efc: name('efc'), bms: name('bms') })
          : spreadOption(h, name('spread'));
    return withAxisStyle(o, axis);
  }, [h, chart, t, axis]);
  return (
    <Row>
      <Col span={24} data-testid={`health-chart-${chart}`}>
        <EChart option={option} height={300} ariaLabel={t(`batteries.health.chart.${chart}`)} />
      </Col>
    </Row>
  );
}
