import { describe, expect, it } from 'vitest';
import type { Series } from '@/shared/devices/api';
import { dayChartOption } from './chart';

const series = (label: string, unit: string, values: [string, string][]): Series => ({
  label,
  unit,
  id: null,
  groupCode: null,
  name: null,
  records: values.map(([time, value]) => ({ time, value, updateTime: null })),
});

describe('battery day chart', () => {
  const infos = [
    series('soc', '%', [
      ['2026-05-01 10:00:00', '70.0'],
      ['2026-05-01 10:05:00', '75.0'],
    ]),
    series('power', 'W', [['2026-05-01 10:05:00', '-1074.0']]),
    series('temp', '°C', [['2026-05-01 10:00:00', '25.0']]),
  ];

  it('draws the chosen series on a time axis over the plant-local day, one axis per unit', () => {
    const o = dayChartOption(
      infos,
      ['soc', 'power'],
      'C',
      (l) => l.toUpperCase(),
      '2026-05-01',
      'Europe/Madrid',
    ) as {
      xAxis: { type: string; min: number; max: number };
      yAxis: { name: string }[];
      series: { name: string; data: [number, number | null][]; yAxisIndex: number }[];
    };
    expect(o.xAxis).toMatchObject({
      type: 'time',
      min: Date.UTC(2026, 4, 1),
      max: Date.UTC(2026, 4, 2),
    });
    expect(o.yAxis.map((a) => a.name)).toEqual(['%', 'kW']);
    expect(o.series.map((s) => s.name)).toEqual(['SOC', 'POWER']);
    expect(o.series[0]?.data).toEqual([
      [Date.UTC(2026, 4, 1, 10, 0), 70],
      [Date.UTC(2026, 4, 1, 10, 5), 75],
    ]);
    expect(o.series[1]?.data).toEqual([[Date.UTC(2026, 4, 1, 10, 5), -1.074]]);
    expect(o.series[1]?.yAxisIndex).toBe(1);
  });

  it('converts temperatures to the user unit', () => {
    const o = dayChartOption(infos, ['temp'], 'F', (l) => l, '2026-05-01', 'UTC') as {
      yAxis: { name: string }[];
      series: { data: [number, number | null][] }[];
    };
    expect(o.yAxis[0]?.name).toBe('°F');
    expect(o.series[0]?.data).toEqual([[Date.UTC(2026, 4, 1, 10, 0), 77]]);
  });

  it('has no series without data', () => {
    const o = dayChartOption([], ['soc'], 'C', (l) => l, '2026-05-01', 'UTC') as {
      series: unknown[];
    };
    expect(o.series).toEqual([]);
  });
});
