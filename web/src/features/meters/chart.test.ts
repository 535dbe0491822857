import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import type { Series } from '@/shared/devices/api';
import { spanDate } from './api';
import { meterChartOption } from './chart';

const series = (label: string, unit: string, values: [string, string][]): Series => ({
  label,
  unit,
  id: null,
  groupCode: null,
  name: null,
  records: values.map(([time, value]) => ({ time, value, updateTime: null })),
});

type Option = {
  xAxis: { type: string; data: string[]; min: number };
  yAxis: { name: string }[];
  series: { name: string; type: string; data: unknown[]; itemStyle: { color: string } }[];
};

describe('meter chart', () => {
  it('draws the day curve as lines on a time axis over the plant-local day', () => {
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
      '2026-05-01',
      'Europe/London',
    ) as Option;
    expect(o.xAxis).toMatchObject({ type: 'time', min: Date.UTC(2026, 4, 1) });
    expect(o.yAxis[0]?.name).toBe('kW');
    expect(o.series.map((s) => [s.name, s.type])).toEqual([
      ['power', 'line'],
      ['powerL1', 'line'],
    ]);
    expect(o.series[1]?.data).toEqual([[Date.UTC(2026, 4, 1, 10, 5), -0.5]]);
  });

  it('draws energy as bars per bucket, import and export in their own colours', () => {
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
      '2025-06-01',
      'UTC',
    ) as Option;
    expect(o.xAxis.data).toEqual(['2025-01', '2025-06']);
    expect(o.yAxis[0]?.name).toBe('kWh');
    expect(o.series[1]).toMatchObject({ name: 'EXPORT', type: 'bar', data: [null, 1.5] });
    expect(o.series[0]?.itemStyle.color).not.toBe(o.series[1]?.itemStyle.color);
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
