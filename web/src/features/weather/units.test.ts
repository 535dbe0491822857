import { describe, expect, it } from 'vitest';
import type { Series } from '@/shared/devices/api';
import { formatTemp, toUserTemp } from '@/shared/devices/temp';
import { compassPoint, dayChartOption } from './units';

const series = (label: string, unit: string, values: [string, string][]): Series => ({
  label,
  unit,
  id: null,
  groupCode: null,
  name: null,
  records: values.map(([time, value]) => ({ time, value, updateTime: null })),
});

describe('weather units', () => {
  it('converts temperatures to the user unit', () => {
    expect(toUserTemp(24.6, 'C')).toBe(24.6);
    expect(toUserTemp(24.6, 'F')).toBe(76.3);
    expect(formatTemp('0', 'F')).toBe('32 °F');
    expect(formatTemp(null, 'C')).toBe('--');
  });

  it('names the compass point of a wind direction', () => {
    expect(compassPoint('225.0')).toBe('SW');
    expect(compassPoint('359')).toBe('N');
    expect(compassPoint('-90')).toBe('W');
    expect(compassPoint(null)).toBeNull();
  });
});

describe('weather day chart', () => {
  const infos = [
    series('irradiance', 'W/m²', [['2026-05-01 12:00:00', '812.0']]),
    series('ambientTemp', '°C', [
      ['2026-05-01 12:00:00', '25.0'],
      ['2026-05-01 12:05:00', '26.0'],
    ]),
    series('moduleTemp', '°C', [['2026-05-01 12:05:00', '41.0']]),
  ];
  const noon = Date.UTC(2026, 4, 1, 12, 0);

  it('places the temperatures of the view by time, in the user unit, on one axis', () => {
    const o = dayChartOption(
      infos,
      'temperature',
      'F',
      (l) => l,
      '2026-05-01',
      'Europe/Madrid',
    ) as {
      xAxis: { type: string; min: number; max: number };
      yAxis: { name: string }[];
      series: { name: string; data: [number, number | null][]; yAxisIndex: number }[];
    };
    expect(o.xAxis.type).toBe('time');
    expect(o.xAxis.max - o.xAxis.min).toBe(24 * 3600 * 1000);
    expect(o.yAxis.map((a) => a.name)).toEqual(['°F']);
    expect(o.series.map((s) => s.name)).toEqual(['ambientTemp', 'moduleTemp']);
    expect(o.series[0]?.data).toEqual([
      [noon, 77],
      [noon + 5 * 60_000, 78.8],
    ]);
    expect(o.series[1]?.data).toEqual([[noon + 5 * 60_000, 105.8]]);
  });

  it('is empty when the view has no data', () => {
    const o = dayChartOption(infos, 'humidityWind', 'C', (l) => l, '2026-05-01', 'UTC') as {
      series: unknown[];
    };
    expect(o.series).toEqual([]);
  });
});
