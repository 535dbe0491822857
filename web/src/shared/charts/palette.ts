import { SERIES_GREY, SERIES_PALETTE, type ThemeKind } from '@/shared/theme';

const [blue, orange, green, vermillion, violet, cyan, pink, ochre] = SERIES_PALETTE;

/**
 * What each series means, as a colour of the one palette (SERIES_PALETTE, docs/overview.md).
 * Series keep their meaning across screens: PV green, load blue, grid violet, battery orange,
 * SOC cyan, generator vermillion. Flows that go both ways have a colour per direction, so a
 * chart never draws import and export (or charge and discharge) alike: import violet, export
 * ochre, charge orange, discharge pink. Within one chart [seriesColors] keeps them distinct.
 */
export const SERIES_COLORS = {
  pv: green,
  load: blue,
  grid: violet,
  gridImport: violet,
  gridExport: ochre,
  battery: orange,
  charge: orange,
  discharge: pink,
  soc: cyan,
  generator: vermillion,
  other: SERIES_GREY,
} as const;

/** Predicted generation: PV's colour, hollow and dashed, read as the target beside PV's bar. */
export const PREDICTED_STYLE = {
  color: `${SERIES_COLORS.pv}2e`, // 18 % opaque
  borderColor: SERIES_COLORS.pv,
  borderType: 'dashed',
  borderWidth: 1,
};

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

/**
 * The colours of a chart's series, in order: each its wanted colour (its meaning's, or its
 * own), unless an earlier series of the chart has it already, as the L1, L2 and L3 power of a
 * grid port all mean "grid": then the first palette colour no series of the chart has. Past
 * the palette's length colours repeat in palette order. Pure.
 */
export function seriesColors(wanted: readonly string[]): string[] {
  const taken = new Set<string>();
  let spare = 0;
  return wanted.map((w) => {
    let color = w;
    if (taken.has(color.toLowerCase())) {
      const free = SERIES_PALETTE.find((c) => !taken.has(c.toLowerCase()));
      color = free ?? SERIES_PALETTE[spare++ % SERIES_PALETTE.length] ?? SERIES_GREY;
    }
    taken.add(color.toLowerCase());
    return color;
  });
}

export const PALETTES: Record<ThemeKind, ChartPalette> = {
  default: {
    colors: [...SERIES_PALETTE],
    text: 'rgba(255,255,255,0.75)',
    axis: 'rgba(255,255,255,0.35)',
    split: 'rgba(255,255,255,0.08)',
    tooltipBg: '#1b231f',
  },
  branded: {
    colors: [...SERIES_PALETTE],
    text: 'rgba(0,0,0,0.75)',
    axis: 'rgba(0,0,0,0.35)',
    split: 'rgba(0,0,0,0.08)',
    tooltipBg: '#ffffff',
  },
};
