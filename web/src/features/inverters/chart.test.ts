import { describe, expect, it } from 'vitest';
import { SERIES_COLORS } from '@/shared/charts';
import type { Series } from './api';
import { realtimeUrl, seriesRequest } from './api';
import { axisLabel, chartOption, seriesKind, toUserTemp, userUnit } from './chart';

const series = (label: string, unit: string, values: [string, string][]): Series => ({
  unit,
  label,
  id: null,
  groupCode: null,
  name: null,
  records: values.map(([time, value]) => ({ time, value, updateTime: null })),
});

describe('inverter charts', () => {
  it('convert temperatures to the user unit and leave other units alone', () => {
    expect(toUserTemp(100, 'F')).toBe(212);
    expect(toUserTemp(41.5, 'F')).toBe(106.7);
    expect(toUserTemp(41.5, 'C')).toBe(41.5);
    expect(userUnit('°C', 'F')).toBe('°F');
    expect(userUnit('W', 'F')).toBe('W');
  });

  it('colour series by meaning', () => {
    expect(seriesKind('pv_power')).toBe('pv');
    expect(seriesKind('pv2_voltage')).toBe('pv');
    expect(seriesKind('grid_power_l1')).toBe('grid');
    expect(seriesKind('grid_export')).toBe('grid');
    expect(seriesKind('soc')).toBe('soc');
    expect(seriesKind('battery_power')).toBe('battery');
    expect(seriesKind('discharge')).toBe('battery');
    expect(seriesKind('eps_power')).toBe('load');
    expect(seriesKind('generator')).toBe('generator');
    expect(seriesKind('dc_temp')).toBe('other');
  });

  it('build day curves on the plant-local times with one axis per unit', () => {
    const option = chartOption({
      span: 'day',
      temp: 'F',
      name: (l) => l.toUpperCase(),
      infos: [
        series('pv_power', 'W', [
          ['2026-05-04 10:00:00', '100.0'],
          ['2026-05-04 10:05:00', '120.0'],
        ]),
        series('dc_temp', '°C', [['2026-05-04 10:05:00', '100.0']]),
        series('empty', 'W', []),
      ],
    }) as {
      xAxis: { data: string[] };
      yAxis: { name: string }[];
      series: { name: string; data: (number | null)[]; yAxisIndex: number; type: string }[];
    };
    expect(option.xAxis.data).toEqual(['10:00', '10:05']);
    expect(option.yAxis.map((a) => a.name)).toEqual(['W', '°F']);
    expect(option.series).toHaveLength(2);
    expect(option.series[0]).toMatchObject({
      name: 'PV_POWER (W)',
      type: 'line',
      data: [100, 120],
    });
    expect(option.series[1]).toMatchObject({ yAxisIndex: 1, data: [null, 212] });
  });

  it('build bars for months, years and totals', () => {
    const option = chartOption({
      span: 'year',
      temp: 'C',
      name: (l) => l,
      infos: [series('pv', 'kWh', [['2026-01', '12.5']])],
    }) as { series: { type: string; itemStyle: { color: string } }[]; xAxis: { data: string[] } };
    expect(option.series[0]?.type).toBe('bar');
    expect(option.series[0]?.itemStyle.color).toBe(SERIES_COLORS.pv);
    expect(option.xAxis.data).toEqual(['2026-01']);
    expect(axisLabel('2026-05-04 10:00:00', 'month')).toBe('2026-05-04 10:00:00');
  });
});

describe('inverter endpoints per tab', () => {
  it('map tabs and spans to the SPEC section 7 paths', () => {
    expect(realtimeUrl('input', 'A1')).toBe('/api/v1/inverter/A1/realtime/input');
    expect(realtimeUrl('gen', 'A1')).toBe('/api/v1/inverter/gen/A1/realtime');
    expect(realtimeUrl('battery', 'A1')).toBe('/api/v1/inverter/battery/A1/realtime');
    expect(seriesRequest('grid', 'month', 'A1', '2026-05-04')).toEqual({
      url: '/api/v1/inverter/grid/A1/month',
      params: { date: '2026-05' },
    });
    expect(seriesRequest('output', 'day', 'A1', '2026-05-04')).toEqual({
      url: '/api/v1/inverter/A1/output/day',
      params: { date: '2026-05-04', column: 'pac,fac,dc_temp,igbt_temp' },
    });
    expect(seriesRequest('input', 'total', 'A1', '2026-05-04')).toEqual({
      url: '/api/v1/inverter/A1/total',
      params: {},
    });
    expect(seriesRequest('gen', 'day', 'A1', '2026-05-04').url).toBe(
      '/api/v1/inverter/genMi/A1/day',
    );
    expect(seriesRequest('gen', 'year', 'A1', '2026-05-04')).toEqual({
      url: '/api/v1/inverter/gen/A1/byDate',
      params: { date: '2026' },
    });
  });
});
