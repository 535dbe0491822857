import { formatNumber, MISSING } from '@/shared/format/number';
import type { Port, Realtime, RealtimeAnswers, Vip } from './api';
import { toUserTemp, type TempUnit } from './chart';

/** How a realtime value shows: a plain number with its unit, a temperature, or a code. */
type Kind = 'num' | 'temp' | 'grid' | 'battery';

export interface FieldSpec {
  key: string;
  /** `inverters.field.<labelKey>` */
  labelKey: string;
  unit: string;
  kind?: Kind;
}

const f = <K extends string>(
  key: K,
  unit: string,
  kind?: Kind,
  labelKey: string = key,
): FieldSpec & { key: K } => ({
  key,
  labelKey,
  unit,
  kind,
});

/** Each tab's fields name keys of its realtime answer (checked against the generated types). */
type FieldsOfAnswers = { [P in Port]: (FieldSpec & { key: keyof RealtimeAnswers[P] })[] };

/** The realtime values each tab shows, in order (keys of the realtime answers). */
export const REALTIME_FIELDS: Record<Port, FieldSpec[]> = {
  input: [f('pac', 'W', 'num', 'pvPower'), f('etoday', 'kWh'), f('etotal', 'kWh')],
  output: [
    f('pac', 'W', 'num', 'acPower'),
    f('fac', 'Hz'),
    f('dcTemp', '°C', 'temp'),
    f('igbtTemp', '°C', 'temp'),
  ],
  grid: [
    f('pac', 'W', 'num', 'gridPower'),
    f('fac', 'Hz'),
    f('status', '', 'grid', 'gridStatus'),
    f('etodayFrom', 'kWh'),
    f('etodayTo', 'kWh'),
    f('etotalFrom', 'kWh'),
    f('etotalTo', 'kWh'),
    f('limiterTotalPower', 'W'),
  ],
  load: [
    f('totalPower', 'W', 'num', 'loadPower'),
    f('dailyUsed', 'kWh'),
    f('totalUsed', 'kWh'),
    f('loadFac', 'Hz', 'num', 'fac'),
    f('upsPowerL1', 'W'),
    f('upsPowerL2', 'W'),
    f('upsPowerL3', 'W'),
  ],
  battery: [
    f('soc', '%'),
    f('power', 'W', 'num', 'batteryPower'),
    f('voltage', 'V'),
    f('current', 'A'),
    f('temp', '°C', 'temp'),
    f('status', '', 'battery', 'batteryStatus'),
    f('etodayChg', 'kWh'),
    f('etodayDischg', 'kWh'),
    f('etotalChg', 'kWh'),
    f('etotalDischg', 'kWh'),
    f('chargeVolt', 'V'),
    f('dischargeVolt', 'V'),
    f('chargeCurrentLimit', 'A'),
    f('dischargeCurrentLimit', 'A'),
    f('numberOfBatteries', ''),
  ],
  eps: [f('pac', 'W', 'num', 'epsPower'), f('fac', 'Hz')],
  gen: [
    f('totalPower', 'W', 'num', 'genPower'),
    f('genDaily', 'kWh'),
    f('genTotal', 'kWh'),
    f('genFac', 'Hz', 'num', 'fac'),
  ],
  meter: [
    f('pac', 'W', 'num', 'meterPower'),
    f('fac', 'Hz'),
    f('etodayFrom', 'kWh'),
    f('etodayTo', 'kWh'),
    f('etotalFrom', 'kWh'),
    f('etotalTo', 'kWh'),
  ],
} satisfies FieldsOfAnswers;

const asNumber = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '' || typeof v === 'boolean') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

/**
 * A realtime value as shown: '--' when missing, temperatures in the user's unit, numbers with
 * separators and at most two decimals, codes through `code` (a translated status).
 */
export function showValue(
  spec: FieldSpec,
  data: Realtime | undefined,
  temp: TempUnit,
  code: (kind: 'grid' | 'battery', value: number) => string,
): string {
  const n = asNumber(data?.[spec.key]);
  if (n === null) return MISSING;
  if (spec.kind === 'grid' || spec.kind === 'battery') return code(spec.kind, n);
  if (spec.kind === 'temp')
    return `${formatNumber(toUserTemp(n, temp))} ${temp === 'F' ? '°F' : '°C'}`;
  const rounded = Math.round(n * 100) / 100;
  return spec.unit ? `${formatNumber(rounded)} ${spec.unit}` : formatNumber(rounded);
}

/** `vip[]` of a realtime answer (empty when absent). */
export function vipRows(data: Realtime | undefined): (Vip & { phase: number })[] {
  const vip = Array.isArray(data?.vip) ? (data.vip as Vip[]) : [];
  return vip.map((v, i) => ({ ...v, phase: i + 1 }));
}

/**
 * The translated name of a series label: fixed labels from the locale, numbered ones
 * (`pv2_voltage`, `grid_power_l3`) from their parts.
 */
export function seriesName(
  label: string,
  t: (key: string, opts: Record<string, string>) => string,
): string {
  const pv = /^pv(\d+)_(voltage|current|power)$/.exec(label);
  if (pv?.[1] && pv[2])
    return t('inverters.series.pvInput', { n: pv[1], q: t(`inverters.quantity.${pv[2]}`, {}) });
  const line = /^(.*)_l(\d)$/.exec(label);
  if (line?.[1])
    return `${t(`inverters.series.${line[1]}`, { defaultValue: line[1] })} L${line[2]}`;
  return t(`inverters.series.${label}`, { defaultValue: label });
}

/** A device name is at most 32 bytes (UTF-8), counted after trimming. */
export const ALIAS_MAX_BYTES = 32;
export const aliasBytes = (s: string) => new TextEncoder().encode(s.trim()).length;
