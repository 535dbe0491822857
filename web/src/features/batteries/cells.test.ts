import { describe, expect, it } from 'vitest';
import type { Pack } from './api';
import { formatTemp, toUserTemp } from '@/shared/devices/temp';
import { cellSpreadMv, cellTiles } from './cells';

const pack = (no: number, max: string | null, min: string | null): Pack => ({
  no,
  sn: `P${no}`,
  status: 1,
  source: 'pack',
  soc: '80.0',
  soh: null,
  voltage: null,
  current: null,
  temp: null,
  cellVoltMax: max,
  cellVoltMin: min,
  cycles: null,
});

describe('cell grid', () => {
  it('marks the highest and lowest of listed cells', () => {
    const tiles = cellTiles({
      cells: [
        { pack: 1, no: 1, voltage: '3.301', temp: null },
        { pack: 1, no: 2, voltage: '3.352', temp: null },
        { pack: 2, no: 1, voltage: '3.288', temp: null },
        { pack: 2, no: 2, voltage: '3.352', temp: null },
      ],
      packs: [pack(1, '3.4', '3.1')],
    });
    expect(tiles).toHaveLength(4);
    expect(tiles.filter((t) => t.extreme === 'max').map((t) => t.key)).toEqual(['1-2']);
    expect(tiles.find((t) => t.extreme === 'min')?.key).toBe('2-1');
    expect(tiles.every((t) => t.kind === 'cell')).toBe(true);
  });

  it("falls back to each pack's extremes and marks the stack's", () => {
    const tiles = cellTiles({
      cells: [],
      packs: [pack(1, '3.310', '3.262'), pack(2, '3.330', '3.270'), pack(3, null, null)],
    });
    expect(tiles.map((t) => `${t.key}:${t.extreme ?? ''}`)).toEqual([
      '1-max:',
      '1-min:min',
      '2-max:max',
      '2-min:',
    ]);
  });

  it("carries each cell's temperature when the BMS reports one", () => {
    const tiles = cellTiles({
      cells: [
        { pack: null, no: 1, voltage: '3.300', temp: '24.5' },
        { pack: null, no: 2, voltage: '3.310', temp: null },
        { pack: null, no: 3, voltage: '3.305', temp: null },
      ],
      packs: [],
    });
    expect(tiles.map((t) => t.temp)).toEqual([24.5, null, null]);
  });

  it('is empty without cells or packs', () => {
    expect(cellTiles({ cells: [], packs: [] })).toEqual([]);
  });

  it('gives the spread in millivolts', () => {
    expect(
      cellSpreadMv({
        cellMax: { voltage: '3.310', pack: 2, cell: null },
        cellMin: { voltage: '3.262', pack: 1, cell: null },
      }),
    ).toBe(48);
    expect(cellSpreadMv({ cellMax: null, cellMin: null })).toBeNull();
  });
});

describe('temperatures', () => {
  it('follow the user unit', () => {
    expect(toUserTemp(25, 'C')).toBe(25);
    expect(toUserTemp(25, 'F')).toBe(77);
    expect(toUserTemp(-40, 'F')).toBe(-40);
    expect(formatTemp('27.5', 'F')).toBe('81.5 °F');
    expect(formatTemp(null, 'C')).toBe('--');
  });
});
