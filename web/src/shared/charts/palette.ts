import type { ThemeKind } from '@/shared/theme';

/**
 * Chart palettes (SPEC section 9: chart colour palettes are defined), one per theme. Series keep
 * their meaning across screens: PV green, load blue, grid purple, battery orange, SOC cyan.
 */
export const SERIES_COLORS = {
  pv: '#00cc00',
  load: '#3d8bfd',
  grid: '#a06cf0',
  battery: '#ff9f1c',
  soc: '#2ec4d6',
  generator: '#e05d5d',
  other: '#b7c0bb',
} as const;

export type SeriesKind = keyof typeof SERIES_COLORS;

export interface ChartPalette {
  colors: string[];
  text: string;
  axis: string;
  split: string;
  tooltipBg: string;
}

const ORDER: SeriesKind[] = ['pv', 'load', 'grid', 'battery', 'soc', 'generator', 'other'];

export const PALETTES: Record<ThemeKind, ChartPalette> = {
  default: {
    colors: ORDER.map((k) => SERIES_COLORS[k]),
    text: 'rgba(255,255,255,0.75)',
    axis: 'rgba(255,255,255,0.35)',
    split: 'rgba(255,255,255,0.08)',
    tooltipBg: '#1b231f',
  },
  branded: {
    colors: ORDER.map((k) => SERIES_COLORS[k]),
    text: 'rgba(0,0,0,0.75)',
    axis: 'rgba(0,0,0,0.35)',
    split: 'rgba(0,0,0,0.08)',
    tooltipBg: '#ffffff',
  },
};
