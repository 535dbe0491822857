import { BarChart, LineChart, PieChart } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { useThemeKind } from '@/shared/theme';
import { PALETTES } from './palette';

echarts.use([
  BarChart,
  LineChart,
  PieChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  DataZoomComponent,
  CanvasRenderer,
]);

export type ChartOption = echarts.EChartsCoreOption;

interface Props {
  option: ChartOption;
  height?: number;
  /** For tests and screen readers. */
  ariaLabel?: string;
}

/**
 * One ECharts canvas that follows the theme's palette and the container's width. Screens pass
 * the series; axes, legend and tooltip colours come from the palette.
 */
export function EChart({ option, height = 320, ariaLabel }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const palette = PALETTES[useThemeKind()];

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const instance = echarts.init(el, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer =
      typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => instance.resize());
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(
      {
        color: palette.colors,
        backgroundColor: 'transparent',
        textStyle: { color: palette.text },
        legend: { textStyle: { color: palette.text }, top: 0 },
        tooltip: {
          trigger: 'axis',
          backgroundColor: palette.tooltipBg,
          textStyle: { color: palette.text },
        },
        grid: { left: 48, right: 48, top: 36, bottom: 32 },
        ...option,
      },
      { notMerge: true },
    );
  }, [option, palette]);

  return <div ref={box} role="img" aria-label={ariaLabel} style={{ width: '100%', height }} />;
}
