import { describe, expect, it } from 'vitest';
import { SERIES_COLORS } from '@/shared/charts';
import { SERIES_PALETTE } from '@/shared/theme';
import type { Series } from './api';
import { realtimeUrl, seriesRequest } from './api';
import { chartOption, toUserTemp, userUnit } from './chart';

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

  it('build day curves on a time axis over the plant-local day, one axis per quantity', () => {
    const option = chartOption({
      span: 'day',
      temp: 'F',
      name: (l) => l.toUpperCase(),
      day: '2026-05-04',
      zone: 'Europe/Madrid',
      infos: [
        series('pv_power', 'W', [
          ['2026-05-04 10:00:00', '1000.0'],
          ['2026-05-04 10:05:00', '1200.0'],
        ]),
        series('dc_temp', '°C', [['2026-05-04 10:05:00', '100.0']]),
        series('empty', 'W', []),
      ],
    }) as {
      xAxis: { type: string; min: number; max: number };
      yAxis: { name: string }[];
      series: { name: string; data: [number, number | null][]; yAxisIndex: number }[];
    };
    expect(option.xAxis).toMatchObject({ type: 'time', min: Date.UTC(2026, 4, 4) });
    expect(option.yAxis.map((a) => a.name)).toEqual(['kW', '°F']);
    expect(option.series).toHaveLength(2);
    expect(option.series[0]).toMatchObject({
      name: 'PV_POWER',
      data: [
        [Date.UTC(2026, 4, 4, 10, 0), 1],
        [Date.UTC(2026, 4, 4, 10, 5), 1.2],
      ],
    });
    expect(option.series[1]).toMatchObject({
      yAxisIndex: 1,
      data: [[Date.UTC(2026, 4, 4, 10, 5), 212]],
    });
  });

  it('build bars for months, years and totals, import and export apart', () => {
    const option = chartOption({
      span: 'year',
      temp: 'C',
      name: (l) => l,
      day: '2026-05-04',
      zone: 'UTC',
      infos: [
        series('grid_import', 'kWh', [['2026-01', '12.5']]),
        series('grid_export', 'kWh', [['2026-01', '3.0']]),
      ],
    }) as { series: { type: string; itemStyle: { color: string } }[]; xAxis: { data: string[] } };
    expect(option.series[0]?.type).toBe('bar');
    expect(option.series[0]?.itemStyle.color).toBe(SERIES_COLORS.gridImport);
    expect(option.series[1]?.itemStyle.color).toBe(SERIES_COLORS.gridExport);
    expect(option.xAxis.data).toEqual(['2026-01']);
  });
});

describe('inverter endpoints per tab', () => {
  it('map tabs and spans to the API paths of docs/api.md', () => {
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

describe('inverter charts of many series', () => {
  const at = (v: string): [string, string][] => [['2026-05-04 10:00:00', v]];
  // the grid tab: the total, each phase's power and each phase's voltage, all "grid" series
  const grid = [
    series('grid_power', 'W', at('3000')),
    series('grid_power_l1', 'W', at('1000')),
    series('grid_power_l2', 'W', at('1000')),
    series('grid_power_l3', 'W', at('1000')),
    series('grid_voltage_l1', 'V', at('230')),
    series('grid_voltage_l2', 'V', at('231')),
    series('grid_voltage_l3', 'V', at('229')),
  ];
  type Shown = {
    legend: { show: boolean };
    series: { lineStyle?: { color: string }; itemStyle: { color: string } }[];
  };

  it.each(['day', 'month'] as const)(
    'draw each series of the %s chart in its own colour, named in a legend',
    (span) => {
      const option = chartOption({
        span,
        temp: 'C',
        name: (l) => l,
        day: '2026-05-04',
        zone: 'UTC',
        infos: grid,
      }) as Shown;
      expect(option.series).toHaveLength(7);
      const colors = option.series.map((s) => s.itemStyle.color);
      expect(new Set(colors).size).toBe(7);
      // the total keeps the grid's own colour, the phases take the palette's next ones
      expect(colors[0]).toBe(SERIES_COLORS.grid);
      for (const c of colors) expect(SERIES_PALETTE).toContain(c);
      if (span === 'day') expect(option.series.map((s) => s.lineStyle?.color)).toEqual(colors);
      expect(option.legend.show).toBe(true);
    },
  );

  it('show no legend for a single series', () => {
    const option = chartOption({
      span: 'day',
      temp: 'C',
      name: (l) => l,
      day: '2026-05-04',
      zone: 'UTC',
      infos: grid.slice(0, 1),
    }) as Shown;
    expect(option.legend.show).toBe(false);
  });
});
