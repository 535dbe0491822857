/**
 * The one palette of chart series, for both themes: every colour keeps a contrast of at least
 * 3:1 against white (the branded theme's cards) and against the dark theme's cards, so a line
 * reads on either. The order is the order colours are handed out to series without a meaning
 * of their own (and to a second series of one meaning): blue and orange first, the pair every
 * kind of colour blindness tells apart, then colours that differ in lightness as well as hue.
 */
export const SERIES_PALETTE = [
  '#3d8bfd', // blue
  '#d27a00', // orange
  '#0e9f73', // bluish green
  '#e0602a', // vermillion
  '#9b6ef0', // violet
  '#1a9fb5', // cyan
  '#d9548f', // pink
  '#9c8400', // ochre
] as const;

/** Series without a meaning the palette knows (and the palette's last resort). */
export const SERIES_GREY = '#868e8a';
