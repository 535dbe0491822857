import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import type { Series } from '@/features/devices/api';
import { spanDate } from './api';
import { meterChartOption } from './chart';

const series = (label: string, unit: string, values: [string, string][]): Series => ({
  label,
  unit,
  records: values.map(([time, value]) => ({ time, value, updateTime: null })),
});

type Option = {
  xAxis: { data: string[] };
  yAxis: { name: string }[];
  series: { name: string; type: string; data: (number | null)[] }[];
};

describe('meter chart', () => {
  it('draws the day curve as lines over plant-local times', () => {
    const o = meterChartOption(
      [
        series('power', 'W', [
          ['2026-05-01 10:00:00', '900.0'],
          ['2026-05-01 10:05:00', '-1500.0'],
        ]),
        series('powerL1', 'W', [['2026-05-01 10:05:00', '-500.0']]),
        series('powerL2', 'W', []),
      ],
      'day',
      (l) => l,
    ) as Option;
    expect(o.xAxis.data).toEqual(['10:00', '10:05']);
    expect(o.series.map((s) => [s.name, s.type])).toEqual([
      ['power (W)', 'line'],
      ['powerL1 (W)', 'line'],
    ]);
    expect(o.series[1]?.data).toEqual([null, -500]);
  });

  it('draws energy as bars per bucket', () => {
    const o = meterChartOption(
      [
        series('import', 'kWh', [
          ['2025-01', '10.0'],
          ['2025-06', '20.0'],
        ]),
        series('export', 'kWh', [['2025-06', '1.5']]),
      ],
      'year',
      (l) => l.toUpperCase(),
    ) as Option;
    expect(o.xAxis.data).toEqual(['2025-01', '2025-06']);
    expect(o.yAxis[0]?.name).toBe('kWh');
    expect(o.series[1]).toMatchObject({ name: 'EXPORT (kWh)', type: 'bar', data: [null, 1.5] });
  });

  it('names the date of each span', () => {
    const d = dayjs('2026-05-04');
    expect(['day', 'month', 'year', 'total'].map((s) => spanDate(s as never, d))).toEqual([
      '2026-05-04',
      '2026-05',
      '2026',
      '',
    ]);
  });
});
