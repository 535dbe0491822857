import {
  barsOption,
  dayChartOption,
  recordValues,
  SERIES_COLORS,
  type ChartOption,
} from '@/shared/charts';
import type { Series } from '@/shared/devices/api';
import type { Span } from './api';

/** Meter series are grid quantities: the total in the grid colour, phases around it, import
 * and export in their own colours. */
const COLORS: Record<string, string> = {
  power: SERIES_COLORS.grid,
  powerL1: SERIES_COLORS.load,
  powerL2: SERIES_COLORS.battery,
  powerL3: SERIES_COLORS.soc,
  import: SERIES_COLORS.gridImport,
  export: SERIES_COLORS.gridExport,
};

/**
 * A meter chart: the day curve as lines on a time axis over the whole plant-local day (W, kW
 * or MW by the peak), month/year/total energy as bars (kWh or MWh). Pure, for tests.
 */
export function meterChartOption(
  infos: Series[],
  span: Span,
  name: (label: string) => string,
  day: string,
  zone: string,
): ChartOption {
  const series = infos.map((s) => ({
    key: s.label,
    name: name(s.label),
    unit: s.unit,
    color: COLORS[s.label] ?? SERIES_COLORS.other,
    records: recordValues(s.records),
  }));
  return span === 'day' ? dayChartOption({ series, day, zone }) : barsOption({ series });
}
