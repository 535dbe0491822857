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
    // The instance on its element, for the browser tests (where each point is drawn).
    (el as HTMLDivElement & { chart?: echarts.ECharts }).chart = instance;
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
    const own = option as Record<string, object | undefined>;
    chart.current?.setOption(
      {
        color: palette.colors,
        backgroundColor: 'transparent',
        textStyle: { color: palette.text },
        ...option,
        // The screen's legend, tooltip and grid keep the palette's colours and margins.
        legend: { top: 0, ...own.legend, textStyle: { color: palette.text } },
        tooltip: {
          trigger: 'axis',
          ...own.tooltip,
          backgroundColor: palette.tooltipBg,
          textStyle: { color: palette.text },
        },
        // The axes' labels and names are laid out inside the canvas, whatever its width: a
        // phone keeps every pixel for the plot and nothing is cut off at the edges.
        grid: {
          left: 4,
          right: 4,
          top: 44,
          bottom: 4,
          outerBoundsMode: 'same',
          outerBoundsContain: 'all',
          ...own.grid,
        },
      },
      { notMerge: true },
    );
  }, [option, palette]);

  return <div ref={box} role="img" aria-label={ariaLabel} style={{ width: '100%', height }} />;
}
