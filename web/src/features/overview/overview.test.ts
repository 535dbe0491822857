import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import type { FlowData, Series } from './api';
import { PREDICTED_STYLE } from '@/shared/charts';
import { chartOption, hasData, predictedRatio } from './chart';
import { flowModel } from './flow';
import { todayIn } from '@/shared/format/time';
import { downloadRange, formatTemp, isStorage, powerRatio } from './format';
import { figuresDate, formatFigure } from './figures';

const flow = (patch: Partial<FlowData> = {}): FlowData => ({
  custCode: 2,
  meterCode: 1,
  minPower: 0,
  minTo: false,
  existsMin: false,
  genOn: false,
  microOn: false,
  bmsCommFaultFlag: false,
  existThinkPower: false,
  protocolIdentifier: '',
  battPower2: 0,
  smartLoadPower: 0,
  upsLoadPower: 0,
  homeLoadPower: 2000,
  chargePilePower: 0,
  toSmartLoad: false,
  toUpsLoad: false,
  toHomeLoad: true,
  toChargePile: false,
  existsThreeLoad: false,
  existsSmartLoad: false,
  existsChargePile: false,
  pv: null,
  updateAt: '2026-06-01T10:00:00Z',
  stale: false,
  pvPower: 4000,
  battPower: 1500,
  gridOrMeterPower: 400,
  loadOrEpsPower: 2000,
  genPower: 0,
  soc: 55,
  pvTo: true,
  toLoad: true,
  toBat: true,
  batTo: false,
  toGrid: true,
  gridTo: false,
  genTo: false,
  existsGen: false,
  existsMeter: true,
  existsGrid: true,
  existsBattery: true,
  time: '2026-06-01 12:00:00',
  ...patch,
});

describe('flowModel', () => {
  it('points each line the way energy moves', () => {
    const m = flowModel(flow());
    const dir = Object.fromEntries(m.links.map((l) => [l.node, l.direction]));
    expect(dir).toEqual({ pv: 'toHub', battery: 'fromHub', grid: 'fromHub', load: 'fromHub' });
    expect(m.soc).toBe(55);
  });

  it('draws a discharging battery and an importing grid towards the inverter', () => {
    const m = flowModel(flow({ toBat: false, batTo: true, toGrid: false, gridTo: true }));
    const dir = Object.fromEntries(m.links.map((l) => [l.node, l.direction]));
    expect(dir.battery).toBe('toHub');
    expect(dir.grid).toBe('toHub');
  });

  it('leaves the battery out of a grid-tied plant without one, and keeps it on a storage plant', () => {
    const none = flow({ existsBattery: false, toBat: false, soc: 0 });
    expect(flowModel(none).links.map((l) => l.node)).toEqual(['pv', 'grid', 'load']);
    expect(flowModel(none).soc).toBeNull();
    const storage = flowModel(none, true);
    expect(storage.links.map((l) => l.node)).toContain('battery');
    expect(storage.soc).toBeNull();
  });

  it('keeps a grid-tied plant free of a battery its inverter registers invent', () => {
    // the server's rule: a grid-tied inverter has no battery, whatever SOC its registers carry
    const m = flowModel(flow({ existsBattery: false, soc: 60, toBat: false, battPower: 0 }));
    expect(m.links.map((l) => l.node)).not.toContain('battery');
    expect(m.soc).toBeNull();
  });

  it('draws a stale flow still: every line idle, the last powers kept', () => {
    const m = flowModel(flow({ stale: true }), true);
    expect(m.stale).toBe(true);
    expect(m.links.every((l) => l.direction === 'idle')).toBe(true);
    expect(flowModel(flow()).stale).toBe(false);
  });

  it('shows the generator only where one exists, idle when it is off', () => {
    const m = flowModel(flow({ existsGen: true, genPower: 0, genTo: false }));
    expect(m.links.find((l) => l.node === 'generator')?.direction).toBe('idle');
  });
});

const series = (label: string, unit: string, records: [string, string][]): Series => ({
  unit,
  label,
  id: null,
  groupCode: null,
  name: null,
  records: records.map(([time, value]) => ({ time, value, updateTime: null })),
});

describe('chartOption', () => {
  it('draws a day as lines on a time axis over the plant-local day, SOC on the second axis', () => {
    const o = chartOption({
      infos: [
        series('pv', 'W', [
          ['2026-06-01 12:00:00', '4000.0'],
          ['2026-06-01 12:05:00', '3900.0'],
        ]),
        series('soc', '%', [['2026-06-01 12:05:00', '55.0']]),
        series('battery', 'W', []),
      ],
      period: 'day',
      name: (l) => l.toUpperCase(),
      day: '2026-06-01',
      zone: 'Europe/Madrid',
    }) as {
      xAxis: { type: string; min: number; max: number };
      series: { name: string; data: [number, number][]; yAxisIndex: number; lineStyle: object }[];
      yAxis: { name: string }[];
    };
    expect(o.xAxis).toMatchObject({
      type: 'time',
      min: Date.UTC(2026, 5, 1),
      max: Date.UTC(2026, 5, 2),
    });
    expect(o.series.map((s) => s.name)).toEqual(['PV', 'SOC']);
    expect(o.series[0]?.data).toEqual([
      [Date.UTC(2026, 5, 1, 12, 0), 4],
      [Date.UTC(2026, 5, 1, 12, 5), 3.9],
    ]);
    expect(o.series[1]?.data).toEqual([[Date.UTC(2026, 5, 1, 12, 5), 55]]);
    expect(o.series[1]?.yAxisIndex).toBe(1);
    expect(o.series[1]?.lineStyle).toMatchObject({ type: 'dashed' });
    expect(o.yAxis.map((a) => a.name)).toEqual(['kW', '%']);
  });

  it('draws month bars and leaves out metrics without energy', () => {
    const o = chartOption({
      infos: [
        series('pv', 'kWh', [
          ['2026-06-01', '10.0'],
          ['2026-06-02', '12.5'],
        ]),
        series('generator', 'kWh', [['2026-06-01', '0.0']]),
      ],
      period: 'month',
      name: (l) => l,
      day: '2026-06-15',
      zone: 'UTC',
    }) as { xAxis: { data: string[] }; series: { type: string; name: string }[] };
    expect(o.series).toHaveLength(1);
    expect(o.series[0]?.type).toBe('bar');
    expect(o.xAxis.data).toEqual(['2026-06-01', '2026-06-02']);
  });

  it('knows emptiness', () => {
    expect(hasData([series('pv', 'W', [])])).toBe(false);
    expect(hasData(undefined)).toBe(false);
  });
});

describe('formatting', () => {
  it('shows temperatures in the user unit and -- when missing', () => {
    expect(formatTemp('21.0', 'C')).toBe('21 °C');
    expect(formatTemp('21.0', 'F')).toBe('69.8 °F');
    expect(formatTemp(null, 'F')).toBe('--');
  });

  it('calls current power over capacity a power ratio, in percent', () => {
    expect(powerRatio(0.0103, 3.68)).toBe('1 %');
    expect(powerRatio(0.456, 10)).toBe('45.6 %');
    expect(powerRatio(0, 0)).toBe('--');
    expect(powerRatio(null, 5)).toBe('--');
  });

  it('tells storage plants', () => {
    expect(isStorage(1)).toBe(false);
    expect(isStorage(3)).toBe(true);
  });

  it('downloads the chosen month or year, never past today', () => {
    const today = todayIn('UTC', new Date('2026-06-15T12:00:00Z'));
    expect(downloadRange('month', today, today)).toEqual(['2026-06-01', '2026-06-15']);
    expect(downloadRange('year', today.subtract(1, 'year'), today)).toEqual([
      '2025-01-01',
      '2025-12-31',
    ]);
    expect(downloadRange('day', today.subtract(20, 'day'), today)).toEqual([
      '2026-05-01',
      '2026-05-31',
    ]);
    expect(downloadRange('total', today, today)).toBeNull();
  });
});

describe('predicted generation', () => {
  const month = [
    series('pv', 'kWh', [
      ['2026-11-01', '20'],
      ['2026-11-02', '25'],
    ]),
    series('predicted', 'kWh', [
      ['2026-11-01', '25'],
      ['2026-11-02', '25'],
      ['2026-11-03', '25'],
    ]),
  ];

  it('draws predicted bars hollow beside the actual ones', () => {
    const o = chartOption({
      infos: month,
      period: 'month',
      name: (l) => l,
      day: '2026-11-25',
      zone: 'UTC',
    }) as { series: { name: string; itemStyle: object }[] };
    expect(o.series.map((s) => s.name)).toEqual(['pv', 'predicted']);
    expect(o.series[1]?.itemStyle).toEqual(PREDICTED_STYLE);
  });

  it('compares PV with the prediction on the days that have PV so far', () => {
    expect(predictedRatio(month)).toEqual({ actual: 45, predicted: 50, ratio: 90 });
  });

  it('counts the running month of a year by the share of it that has passed', () => {
    const year = [
      series('pv', 'kWh', [
        ['2026-10', '300'],
        ['2026-11', '150'],
      ]),
      series('predicted', 'kWh', [
        ['2026-10', '300'],
        ['2026-11', '300'],
        ['2026-12', '300'],
      ]),
    ];
    expect(predictedRatio(year, { time: '2026-11', share: 0.5 })).toEqual({
      actual: 450,
      predicted: 450,
      ratio: 100,
    });
  });

  it('puts the predicted bar right beside PV', () => {
    const o = chartOption({
      infos: [series('load', 'kWh', [['2026-11-01', '3']]), ...month],
      period: 'month',
      name: (l) => l,
      day: '2026-11-25',
      zone: 'UTC',
    }) as { series: { name: string }[] };
    expect(o.series.map((s) => s.name)).toEqual(['load', 'pv', 'predicted']);
  });

  it('has no ratio without predictions', () => {
    expect(predictedRatio(month.slice(0, 1))).toBeNull();
    expect(predictedRatio(undefined)).toBeNull();
  });
});

describe('plant figures', () => {
  const figure = (value: number | null) =>
    ({ value, basis: value === null ? 'missing' : 'pvEnergy' }) as const;

  it('names the day, month or year of the chart, and none for all time', () => {
    const d = dayjs('2026-11-28');
    expect(figuresDate('day', d)).toBe('2026-11-28');
    expect(figuresDate('month', d)).toBe('2026-11');
    expect(figuresDate('year', d)).toBe('2026');
    expect(figuresDate('total', d)).toBeNull();
  });

  it('shows each figure in its unit and a missing one as --, never 0', () => {
    expect(formatFigure('specificYield', figure(4.2))).toBe('4.20 kWh/kWp');
    expect(formatFigure('referenceYield', figure(5.25))).toBe('5.25 h');
    expect(formatFigure('performanceRatio', figure(80.04))).toBe('80.0 %');
    expect(formatFigure('selfSufficiency', figure(0))).toBe('0.0 %');
    expect(formatFigure('co2Avoided', figure(7.56))).toBe('7.6 kg');
    expect(formatFigure('co2Avoided', figure(1639.5))).toBe('1.64 t');
    expect(formatFigure('availability', figure(null))).toBe('--');
    expect(formatFigure('availability', undefined)).toBe('--');
  });
});
