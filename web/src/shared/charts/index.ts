export { EChart, type ChartOption } from './EChart';
export { useAxisStyle } from './useAxisStyle';
export { PALETTES, SERIES_COLORS, type SeriesKind } from './palette';
