import type { ChartOption } from '@/shared/charts';

/** A chart option with the theme's axis style on its x axis and every y axis. Pure. */
export function withAxis(o: ChartOption, axis: object): ChartOption {
  return {
    ...o,
    xAxis: { ...(o.xAxis as object), ...axis },
    yAxis: (o.yAxis as object[]).map((y) => ({ ...y, ...axis })),
  };
}
