import { describe, expect, it } from 'vitest';
import { SERIES_PALETTE } from '@/shared/theme';
import { SERIES_COLORS, seriesColors, seriesKind } from './palette';
import {
  barsOption,
  clockOf,
  dayChartOption,
  recordValues,
  wallClockMs,
  withAxisStyle,
  type ChartSeries,
} from './timeSeries';

type Line = { name: string; data: [number, number | null][]; yAxisIndex: number };
type DayOption = {
  useUTC: boolean;
  xAxis: {
    type: string;
    min: number;
    max: number;
    axisLabel: { formatter: (v: number) => string };
  };
  yAxis: { name: string; min?: number; max?: number }[];
  series: Line[];
  tooltip: { formatter: (p: unknown) => string };
};

const every5s = (from: string, minutes: number, value: (i: number) => number) => {
  const start = wallClockMs(from);
  return Array.from({ length: (minutes * 60) / 5 + 1 }, (_, i) => {
    const d = new Date(start + i * 5000);
    const p = (n: number) => String(n).padStart(2, '0');
    return {
      time: `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`,
      value: value(i),
    };
  });
};

const pv = (records: ChartSeries['records']): ChartSeries => ({
  key: 'pv',
  name: 'PV',
  unit: 'W',
  records,
});

describe('dayChartOption', () => {
  it('places every point by its time on an axis that spans the whole plant-local day', () => {
    // Four minutes of 5-second samples, with an hourly backfill point before them.
    const records = [
      { time: '2026-06-01 08:00:00', value: 100 },
      ...every5s('2026-06-01 12:00:00', 4, (i) => 1000 + i),
    ];
    const o = dayChartOption({
      series: [pv(records)],
      day: '2026-06-01',
      zone: 'Europe/Madrid',
    }) as DayOption;
    expect(o.useUTC).toBe(true);
    expect(o.xAxis.type).toBe('time');
    expect(o.xAxis.min).toBe(Date.UTC(2026, 5, 1));
    expect(o.xAxis.max - o.xAxis.min).toBe(24 * 3600 * 1000);
    const xs = o.series[0]!.data.map(([x]) => x);
    expect(xs[0]).toBe(Date.UTC(2026, 5, 1, 8));
    // the live samples take 4/1440 of the day, not most of the chart
    const live = xs.slice(1);
    const span = (live[live.length - 1]! - live[0]!) / (o.xAxis.max - o.xAxis.min);
    expect(span).toBeCloseTo(4 / 1440, 6);
    // equally spaced in time, equally spaced on the axis
    const steps = new Set(live.slice(1).map((x, i) => x - live[i]!));
    expect([...steps]).toEqual([5000]);
    expect(o.xAxis.axisLabel.formatter(Date.UTC(2026, 5, 1, 13, 5))).toBe('13:05');
    // 50 points draw as a line; a lone point draws as a dot, or it would not show at all
    expect((o.series[0] as unknown as { showSymbol: boolean }).showSymbol).toBe(false);
    const lone = dayChartOption({
      series: [pv([{ time: '2026-06-01 14:30:00', value: 3000 }])],
      day: '2026-06-01',
      zone: 'UTC',
    }) as unknown as { series: { showSymbol: boolean }[] };
    expect(lone.series[0]?.showSymbol).toBe(true);
  });

  it('shows power in kW once it passes 1,000 W and SOC on a 0-100 % axis', () => {
    const o = dayChartOption({
      series: [
        pv([
          { time: '2026-06-01 12:00:00', value: 45_000 },
          { time: '2026-06-01 12:05:00', value: 50_000 },
        ]),
        {
          key: 'soc',
          name: 'SOC',
          unit: '%',
          records: [{ time: '2026-06-01 12:05:00', value: 55 }],
        },
        { key: 'battery', name: 'Battery', unit: 'W', records: [] },
      ],
      day: '2026-06-01',
      zone: 'UTC',
    }) as DayOption;
    expect(o.yAxis.map((a) => a.name)).toEqual(['kW', '%']);
    expect(o.yAxis[1]).toMatchObject({ min: 0, max: 100 });
    expect(o.series.map((s) => s.name)).toEqual(['PV', 'SOC']);
    expect(o.series[0]!.data.map(([, v]) => v)).toEqual([45, 50]);
    expect(o.series[1]!.yAxisIndex).toBe(1);
  });

  it('writes tooltips with the plant time, its zone and every unit', () => {
    const o = dayChartOption({
      series: [pv([{ time: '2026-06-01 12:00:00', value: 4200 }])],
      day: '2026-06-01',
      zone: 'Asia/Shanghai',
    }) as DayOption;
    const html = o.tooltip.formatter([
      {
        seriesName: 'PV',
        marker: '•',
        value: [Date.UTC(2026, 5, 1, 12), 4.2],
        axisValue: Date.UTC(2026, 5, 1, 12),
      },
    ]);
    expect(html).toBe('12:00 (Asia/Shanghai)<br/>•PV: <b>4.2 kW</b>');
  });

  it('keeps to two quantities and leaves out series without values', () => {
    const v = (key: string, unit: string): ChartSeries => ({
      key,
      name: key,
      unit,
      records: [{ time: '2026-06-01 10:00:00', value: 1 }],
    });
    const o = dayChartOption({
      series: [
        v('a', 'V'),
        v('b', 'A'),
        v('c', 'Hz'),
        { ...v('d', 'V'), records: [{ time: '2026-06-01 10:00:00', value: null }] },
      ],
      day: '2026-06-01',
      zone: 'UTC',
    }) as DayOption;
    expect(o.series.map((s) => s.name)).toEqual(['a', 'b']);
  });
});

describe('barsOption', () => {
  it('scales energy to MWh and drops metrics without energy', () => {
    const o = barsOption({
      series: [
        {
          key: 'pv',
          name: 'PV',
          unit: 'kWh',
          records: [
            { time: '2026-06', value: 1500 },
            { time: '2026-07', value: 2500 },
          ],
        },
        { key: 'generator', name: 'Gen', unit: 'kWh', records: [{ time: '2026-06', value: 0 }] },
      ],
      dropZero: true,
    }) as {
      xAxis: { data: string[] };
      yAxis: { name: string }[];
      series: { name: string; data: number[] }[];
    };
    expect(o.yAxis[0]?.name).toBe('MWh');
    expect(o.series.map((s) => s.name)).toEqual(['PV']);
    expect(o.series[0]?.data).toEqual([1.5, 2.5]);
    expect(o.xAxis.data).toEqual(['2026-06', '2026-07']);
  });
});

describe('palette and helpers', () => {
  it('gives import and export, charge and discharge colours of their own', () => {
    expect(SERIES_COLORS[seriesKind('grid_import')]).not.toBe(
      SERIES_COLORS[seriesKind('grid_export')],
    );
    expect(SERIES_COLORS[seriesKind('import')]).not.toBe(SERIES_COLORS[seriesKind('export')]);
    expect(SERIES_COLORS[seriesKind('charge')]).not.toBe(SERIES_COLORS[seriesKind('discharge')]);
    expect(seriesKind('pv2_voltage')).toBe('pv');
    expect(seriesKind('battery2_soc')).toBe('soc');
    expect(seriesKind('grid_power_l1')).toBe('grid');
    expect(seriesKind('eps_power')).toBe('load');
    expect(seriesKind('gen_power')).toBe('generator');
    expect(seriesKind('dc_temp')).toBe('other');
  });
  it('reads wall times and string values', () => {
    expect(wallClockMs('2026-06-01 23:59:59')).toBe(Date.UTC(2026, 5, 1, 23, 59, 59));
    expect(Number.isNaN(wallClockMs('junk'))).toBe(true);
    expect(clockOf(Date.UTC(2026, 5, 1, 7, 3))).toBe('07:03');
    expect(
      recordValues(
        [
          { time: 't', value: '' },
          { time: 'u', value: '2.5' },
        ],
        (n) => n * 2,
      ),
    ).toEqual([
      { time: 't', value: null },
      { time: 'u', value: 5 },
    ]);
  });
  it('adds the theme style without losing an axis formatter', () => {
    const f = (v: number) => String(v);
    const o = withAxisStyle(
      { xAxis: { axisLabel: { formatter: f } }, yAxis: [{}, {}] },
      {
        axisLabel: { color: 'red' },
        splitLine: { lineStyle: { color: 'grey' } },
      },
    ) as { xAxis: { axisLabel: object }; yAxis: { splitLine: object }[] };
    expect(o.xAxis.axisLabel).toEqual({ formatter: f, color: 'red' });
    expect(o.yAxis[1]?.splitLine).toEqual({ show: false });
  });
});

describe('seriesColors', () => {
  it('keeps wanted colours and gives a repeated one the next free palette colour', () => {
    const [blue, orange, green] = SERIES_PALETTE;
    expect(
      seriesColors([SERIES_COLORS.grid, SERIES_COLORS.grid, blue, SERIES_COLORS.grid]),
    ).toEqual([SERIES_COLORS.grid, blue, orange, green]);
    expect(seriesColors(['#123456', '#123456'])).toEqual(['#123456', blue]);
  });
});
