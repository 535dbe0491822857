import { useThemeKind } from '@/shared/theme';
import { PALETTES } from './palette';

/** Axis styling for the current palette, to spread into xAxis / yAxis entries. */
export function useAxisStyle() {
  const palette = PALETTES[useThemeKind()];
  return {
    axisLine: { lineStyle: { color: palette.axis } },
    axisLabel: { color: palette.text },
    splitLine: { lineStyle: { color: palette.split } },
  };
}
