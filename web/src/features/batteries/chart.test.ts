import { describe, expect, it } from 'vitest';
import type { Series } from '@/features/devices/api';
import { dayChartOption } from './chart';

const series = (label: string, unit: string, values: [string, string][]): Series => ({
  label,
  unit,
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

  it('draws the chosen series on plant-local times with one axis per unit', () => {
    const o = dayChartOption(infos, ['soc', 'power'], 'C', (l) => l.toUpperCase()) as {
      xAxis: { data: string[] };
      yAxis: { name: string }[];
      series: { name: string; data: (number | null)[]; yAxisIndex: number }[];
    };
    expect(o.xAxis.data).toEqual(['10:00', '10:05']);
    expect(o.yAxis.map((a) => a.name)).toEqual(['%', 'W']);
    expect(o.series.map((s) => s.name)).toEqual(['SOC (%)', 'POWER (W)']);
    expect(o.series[1]?.data).toEqual([null, -1074]);
    expect(o.series[1]?.yAxisIndex).toBe(1);
  });

  it('converts temperatures to the user unit', () => {
    const o = dayChartOption(infos, ['temp'], 'F', (l) => l) as {
      yAxis: { name: string }[];
      series: { data: (number | null)[] }[];
    };
    expect(o.yAxis[0]?.name).toBe('°F');
    expect(o.series[0]?.data).toEqual([77]);
  });

  it('has no series without data', () => {
    const o = dayChartOption([], ['soc'], 'C', (l) => l) as { series: unknown[] };
    expect(o.series).toEqual([]);
  });
});
