import { describe, expect, it } from 'vitest';
import type { Series } from '@/shared/devices/api';
import type { StringNow } from './api';
import { combinerChartOption, stringBarsOption, stringColor, stringNo, WEAK_COLOR } from './chart';

const series = (label: string, unit: string, values: [string, string][]): Series => ({
  label,
  unit,
  id: null,
  groupCode: null,
  name: null,
  records: values.map(([time, value]) => ({ time, value, updateTime: null })),
});

const string = (no: number, current: number, weak = false): StringNow => ({
  no,
  current,
  voltage: 640,
  power: Math.round(current * 640),
  weak,
});

type Bars = {
  xAxis: { data: string[] };
  series: { type: string; data: { value: number; itemStyle: { color: string } }[] }[];
};

type Lines = {
  xAxis: { type: string; min: number };
  yAxis: { name: string }[];
  series: { name: string; type: string; lineStyle?: { color?: string; type?: string } }[];
};

describe('combiner charts', () => {
  it('gives every string its own colour, stable and distinct for neighbours', () => {
    const colors = Array.from({ length: 24 }, (_, i) => stringColor(i + 1));
    expect(new Set(colors).size).toBe(24);
    expect(stringColor(3)).toBe(stringColor(3));
    expect(stringColor(1)).toMatch(/^hsl\(\d+, 62%, 52%\)$/);
  });

  it('reads string numbers from series labels', () => {
    expect(stringNo('string12')).toBe(12);
    expect(stringNo('power')).toBeNull();
    expect(stringNo('string')).toBeNull();
  });

  it('draws one bar per string and marks the weak ones in the warning colour', () => {
    const o = stringBarsOption(
      [string(1, 8.1), string(2, 3.2, true), string(3, 7.9)],
      (no) => `S${no}`,
      '!',
    ) as Bars;
    expect(o.xAxis.data).toEqual(['S1', 'S2 !', 'S3']);
    const bars = o.series[0]?.data ?? [];
    expect(bars.map((b) => b.value)).toEqual([8.1, 3.2, 7.9]);
    expect(bars[1]?.itemStyle.color).toBe(WEAK_COLOR);
    expect(bars[0]?.itemStyle.color).toBe(stringColor(1));
  });

  it('draws the day as string currents in amperes beside the power in kilowatts', () => {
    const o = combinerChartOption(
      [
        series('string1', 'A', [
          ['2026-06-21 12:00:00', '8.1'],
          ['2026-06-21 12:05:00', '8.3'],
        ]),
        series('string2', 'A', [['2026-06-21 12:00:00', '3.0']]),
        series('power', 'W', [['2026-06-21 12:00:00', '42000']]),
      ],
      'day',
      (l) => l.toUpperCase(),
      '2026-06-21',
      'Europe/Madrid',
    ) as Lines;
    expect(o.xAxis).toMatchObject({ type: 'time', min: Date.UTC(2026, 5, 21) });
    expect(o.series.map((s) => [s.name, s.type])).toEqual([
      ['STRING1', 'line'],
      ['STRING2', 'line'],
      ['POWER', 'line'],
    ]);
    expect(o.yAxis.map((a) => a.name)).toEqual(['A', 'kW']);
  });

  it('draws the month as energy bars', () => {
    const o = combinerChartOption(
      [series('energy', 'kWh', [['2026-06-01', '310.5']])],
      'month',
      (l) => l,
      '2026-06-01',
      'UTC',
    ) as Bars;
    expect(o.series[0]?.type).toBe('bar');
  });
});
