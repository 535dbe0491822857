/**
 * Inverter device types (docs/overview.md): the code -> label rule, mirrored from the server's
 * `domain::device::InverterKind`. Other features import it to label inverters the same way.
 */
export type InverterTypeKey =
  | 'grid_tied'
  | 'single_phase_lv_hybrid'
  | 'micro'
  | 'three_phase_hv_hybrid'
  | 'single_phase_hv_hybrid'
  | 'three_phase_lv_hybrid'
  | 'single_phase_hybrid'
  | 'three_phase_hybrid'
  | 'string';

/** The type key of a code: listed codes first, any other truthy code is a three-phase hybrid. */
export function inverterTypeKey(code: number | null | undefined): InverterTypeKey {
  switch (code) {
    case 1:
    case 10:
    case 11:
      return 'grid_tied';
    case 2:
      return 'single_phase_lv_hybrid';
    case 3:
      return 'micro';
    case 94:
      return 'three_phase_hv_hybrid';
    case 21:
      return 'single_phase_hv_hybrid';
    case 93:
      return 'three_phase_lv_hybrid';
    case 22:
      return 'single_phase_hybrid';
    default:
      return code ? 'three_phase_hybrid' : 'string';
  }
}

/** The locale key of a type code's label (`inverters.type.<key>`). */
export function inverterTypeLabelKey(code: number | null | undefined): string {
  return `inverters.type.${inverterTypeKey(code)}`;
}

/** Hybrids have battery, EPS and generator ports. */
export function isHybrid(code: number | null | undefined): boolean {
  const key = inverterTypeKey(code);
  return key !== 'grid_tied' && key !== 'micro' && key !== 'string';
}

/** The codes a type filter offers, one per label (the first code of each). */
export const TYPE_FILTER_CODES: readonly number[] = [1, 2, 3, 21, 22, 93, 94];
