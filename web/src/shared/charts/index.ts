export { EChart, type ChartOption } from './EChart';
export { useAxisStyle } from './useAxisStyle';
export {
  PALETTES,
  PREDICTED_STYLE,
  SERIES_COLORS,
  seriesColors,
  seriesKind,
  type SeriesKind,
} from './palette';
export {
  barsOption,
  clockOf,
  dayChartOption,
  recordValues,
  wallClockMs,
  withAxisStyle,
  type AxisStyle,
  type ChartSeries,
} from './timeSeries';
