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
import { useMediaQuery, useReducedMotion } from '@/shared/ui/useNarrow';
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

/** antd's xs: a phone held upright. */
const PHONE_QUERY = '(max-width: 575.98px)';

type Axis = Record<string, unknown> & { axisLabel?: Record<string, unknown> };

/** Axis labels that would overlap are left out rather than drawn over each other. */
function spacedLabels(axis: unknown): unknown {
  if (Array.isArray(axis)) return axis.map(spacedLabels);
  if (!axis || typeof axis !== 'object') return axis;
  const a = axis as Axis;
  return { ...a, axisLabel: { hideOverlap: true, ...a.axisLabel } };
}

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
  const phone = useMediaQuery(PHONE_QUERY);
  const still = useReducedMotion();

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
        // "reduce motion": the series are drawn at once, not grown
        ...(still ? { animation: false } : {}),
        ...option,
        ...(own.xAxis ? { xAxis: spacedLabels(own.xAxis) } : {}),
        ...(own.yAxis ? { yAxis: spacedLabels(own.yAxis) } : {}),
        // The screen's legend, tooltip and grid keep the palette's colours and margins. On a
        // phone the legend is one line that pages sideways (it never wraps over the plot).
        legend: {
          top: 0,
          ...(phone ? { type: 'scroll' } : {}),
          ...own.legend,
          textStyle: { color: palette.text },
        },
        // A finger scrubs: a touch shows the tooltip (a tap counts as a click) and a sideways
        // drag moves it from point to point (touch-action below leaves that drag to the
        // chart); the tooltip stays inside the chart, so it never widens a phone's page.
        tooltip: {
          trigger: 'axis',
          triggerOn: 'mousemove|click',
          confine: true,
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
  }, [option, palette, phone, still]);

  // pan-y: a vertical drag still scrolls the page, a sideways one scrubs the chart
  return (
    <div
      ref={box}
      role="img"
      aria-label={ariaLabel}
      style={{ width: '100%', height, touchAction: 'pan-y' }}
    />
  );
}
