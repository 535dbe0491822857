import { num } from '@/shared/devices/temp';
import type { BatteryRealtime } from './api';

/** One tile of the cell-voltage grid: a single cell, or a pack's highest / lowest cell. */
export interface CellTile {
  key: string;
  pack: number | null;
  cell: number | null;
  kind: 'cell' | 'packMax' | 'packMin';
  voltage: number;
  /** °C, for a single cell whose BMS reports its temperature; null otherwise. */
  temp: number | null;
  /** The stack's highest or lowest cell, highlighted on screen. */
  extreme: 'max' | 'min' | null;
}

/** Marks the first highest of `max` tiles and the first lowest of `min` tiles. */
function mark(tiles: CellTile[], max: CellTile[], min: CellTile[]): CellTile[] {
  const best = (list: CellTile[], better: (a: number, b: number) => boolean) =>
    list.reduce<CellTile | null>(
      (a, b) => (a === null || better(b.voltage, a.voltage) ? b : a),
      null,
    );
  const hi = best(max, (a, b) => a > b);
  const lo = best(min, (a, b) => a < b);
  return tiles.map((t) => ({
    ...t,
    extreme: t.key === hi?.key ? 'max' : t.key === lo?.key ? 'min' : null,
  }));
}

/**
 * The cell grid of a stack: every cell when the BMS lists them, else each pack's highest and
 * lowest cell. The stack's highest and lowest cell are marked (the server names the same ones
 * in `cellMax` / `cellMin`).
 */
export function cellTiles(rt: Pick<BatteryRealtime, 'cells' | 'packs'>): CellTile[] {
  if (rt.cells.length > 0) {
    const tiles: CellTile[] = rt.cells.flatMap((c) => {
      const v = num(c.voltage);
      return v === null
        ? []
        : [
            {
              key: `${c.pack ?? 0}-${c.no}`,
              pack: c.pack,
              cell: c.no,
              kind: 'cell' as const,
              voltage: v,
              temp: num(c.temp),
              extreme: null,
            },
          ];
    });
    return mark(tiles, tiles, tiles);
  }
  const tiles: CellTile[] = [];
  for (const p of rt.packs) {
    const hi = num(p.cellVoltMax);
    const lo = num(p.cellVoltMin);
    if (hi !== null)
      tiles.push({
        key: `${p.no}-max`,
        pack: p.no,
        cell: null,
        kind: 'packMax',
        voltage: hi,
        temp: null,
        extreme: null,
      });
    if (lo !== null)
      tiles.push({
        key: `${p.no}-min`,
        pack: p.no,
        cell: null,
        kind: 'packMin',
        voltage: lo,
        temp: null,
        extreme: null,
      });
  }
  return mark(
    tiles,
    tiles.filter((t) => t.kind === 'packMax'),
    tiles.filter((t) => t.kind === 'packMin'),
  );
}

/** The difference between the highest and lowest cell in millivolts, or null. */
export function cellSpreadMv(rt: Pick<BatteryRealtime, 'cellMax' | 'cellMin'>): number | null {
  const hi = num(rt.cellMax?.voltage);
  const lo = num(rt.cellMin?.voltage);
  return hi === null || lo === null ? null : Math.round((hi - lo) * 1000);
}
