import { describe, expect, it } from 'vitest';
import { health } from './fixtures';
import {
  cellLabel,
  cyclesOption,
  figure,
  measuredShare,
  sohOption,
  spreadOption,
  usualCell,
} from './model';

type Series = { name: string; type: string; data: unknown[] };
const seriesOf = (o: object) => (o as { series: Series[] }).series;

describe('battery health model', () => {
  it('draws the SOH as a line with the measured capacities as points on the % axis', () => {
    const o = sohOption(health(), { soh: 'SOH', measured: 'Measured' });
    const [soh, measured] = seriesOf(o);
    expect((o as { xAxis: { data: string[] } }).xAxis.data).toEqual([
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
    ]);
    // The missing day is a gap in the line, not a 0.
    expect(soh?.data).toEqual([97, null, 96]);
    // 92.6 Ah of 100 Ah rated: 92.6 % on the SOH axis, on its day, points without a line.
    expect(measured?.data).toEqual([null, null, 92.6]);
    // The axis reaches below the lowest point and up to 100 %, in steps of 5.
    expect((o as { yAxis: { min: number; max: number } }).yAxis).toMatchObject({
      min: 90,
      max: 105,
    });
  });

  it('draws cycles and the spread per day, missing days as gaps', () => {
    const cycles = seriesOf(cyclesOption(health(), { efc: 'EFC', bms: 'BMS' }));
    expect(cycles.map((s) => s.data)).toEqual([
      [11.5, 11.5, 12.34],
      [40, null, 41],
    ]);
    expect(seriesOf(spreadOption(health(), 'Spread'))[0]?.data).toEqual([22, null, 31]);
  });

  it('names cells and shows a missing figure as --', () => {
    expect(cellLabel({ pack: null, cell: 3 })).toEqual({
      key: 'batteries.cells.cell',
      values: { no: 3 },
    });
    expect(cellLabel({ pack: 2, cell: 5 })?.values).toEqual({ pack: 2, no: 5 });
    expect(cellLabel(null)).toBeNull();
    expect(figure(null, 1, 'Ah')).toBe('--');
    expect(figure(0, 1, 'Ah')).toBe('0.0 Ah');
    const measured = health().cycles[0];
    expect(measured && measuredShare(measured, null)).toBeNull();
    expect(measured && measuredShare(measured, 200)).toBe(46.3);
    expect(usualCell(health().days, 'highCell')).toEqual({ pack: 1, cell: 4 });
    expect(usualCell([], 'lowCell')).toBeNull();
  });
});
