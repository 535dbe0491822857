import { describe, expect, it } from 'vitest';
import type { Port } from './api';
import {
  aliasBytes,
  REALTIME_FIELDS,
  seriesName,
  showValue,
  vipRows,
  type FieldSpec,
} from './fields';

const spec = (port: Port, key: string): FieldSpec => {
  const found = REALTIME_FIELDS[port].find((s) => s.key === key);
  if (!found) throw new Error(`${port}.${key}`);
  return found;
};

const code = (kind: string, v: number) => `${kind}:${v}`;

describe('realtime fields', () => {
  it('show missing values as -- and numbers with units', () => {
    const soc = spec('battery', 'soc');
    expect(showValue(soc, { soc: '67.0' }, 'C', code)).toBe('67 %');
    expect(showValue(soc, { soc: null }, 'C', code)).toBe('--');
    expect(showValue(soc, undefined, 'C', code)).toBe('--');
    const pac = spec('input', 'pac');
    expect(showValue(pac, { pac: 12345.678 }, 'C', code)).toBe('12,345.68 W');
  });

  it('show temperatures in the user unit and codes through their labels', () => {
    const dc = spec('output', 'dcTemp');
    expect(showValue(dc, { dcTemp: 100 }, 'F', code)).toBe('212 °F');
    expect(showValue(dc, { dcTemp: 41.5 }, 'C', code)).toBe('41.5 °C');
    const status = spec('grid', 'status');
    expect(showValue(status, { status: 1 }, 'C', code)).toBe('grid:1');
  });

  it('number the phases of vip', () => {
    expect(vipRows({ vip: [{ volt: '230.0', current: '1.0', power: 230 }] })).toEqual([
      { volt: '230.0', current: '1.0', power: 230, phase: 1 },
    ]);
    expect(vipRows({})).toEqual([]);
  });

  it('name numbered series from their parts', () => {
    const t = (key: string, opts: Record<string, string>) =>
      `${key}${Object.keys(opts).length ? JSON.stringify(opts) : ''}`;
    expect(seriesName('pv2_voltage', t)).toBe(
      'inverters.series.pvInput{"n":"2","q":"inverters.quantity.voltage"}',
    );
    expect(seriesName('grid_power_l3', t)).toBe(
      'inverters.series.grid_power{"defaultValue":"grid_power"} L3',
    );
    expect(seriesName('soc', t)).toBe('inverters.series.soc{"defaultValue":"soc"}');
  });
});

describe('device names', () => {
  it('count UTF-8 bytes after trimming', () => {
    expect(aliasBytes('  Roof  ')).toBe(4);
    expect(aliasBytes('逆'.repeat(11))).toBe(33);
  });
});
