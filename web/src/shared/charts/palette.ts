import type { ThemeKind } from '@/shared/theme';

/**
 * Chart palettes (docs/overview.md), one per theme. Series keep
 * their meaning across screens: PV green, load blue, grid purple, battery orange, SOC cyan.
 * Flows that go both ways have a colour per direction, so a chart never draws import and
 * export (or charge and discharge) alike: import purple, export amber, charge orange,
 * discharge pink.
 */
export const SERIES_COLORS = {
  pv: '#00cc00',
  load: '#3d8bfd',
  grid: '#a06cf0',
  gridImport: '#a06cf0',
  gridExport: '#e0a800',
  battery: '#ff9f1c',
  charge: '#ff9f1c',
  discharge: '#ec4899',
  soc: '#2ec4d6',
  generator: '#e05d5d',
  other: '#b7c0bb',
} as const;

export type SeriesKind = keyof typeof SERIES_COLORS;

/**
 * The palette colour of a series by its label, for every screen's labels (the server's
 * metric keys and column labels): `pv`, `pv_power`, `pv2_voltage`, `grid_import`, `import`,
 * `battery_power`, `discharge`, `soc`, `battery2_soc`, `gen_power`...
 */
export function seriesKind(label: string): SeriesKind {
  const l = label.toLowerCase();
  if (/^(grid_)?import$/.test(l)) return 'gridImport';
  if (/^(grid_)?export$/.test(l)) return 'gridExport';
  if (/^(battery_)?charge$/.test(l)) return 'charge';
  if (/^(battery_)?discharge$/.test(l)) return 'discharge';
  if (/soc$/.test(l)) return 'soc';
  if (/^(pv|ppv|vpv|ipv)/.test(l) || l === 'ac_power' || l === 'pac') return 'pv';
  if (/^(load|eps)/.test(l)) return 'load';
  if (/^(grid|meter)/.test(l)) return 'grid';
  if (/^battery/.test(l)) return 'battery';
  if (/^gen/.test(l)) return 'generator';
  return 'other';
}

export interface ChartPalette {
  colors: string[];
  text: string;
  axis: string;
  split: string;
  tooltipBg: string;
}

const ORDER: SeriesKind[] = [
  'pv',
  'load',
  'grid',
  'battery',
  'soc',
  'generator',
  'gridExport',
  'discharge',
  'other',
];

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
