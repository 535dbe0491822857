import dayjs, { type Dayjs } from 'dayjs';

/** The date-range presets (docs/overview.md), each with its locale key. */
export type RangePreset = 'today' | 'yesterday' | 'last3' | 'last7' | 'last30' | 'last60';
export const RANGE_PRESETS: readonly RangePreset[] = [
  'today',
  'yesterday',
  'last3',
  'last7',
  'last30',
  'last60',
];

/** [start of the first day, end of the last day]; "last N days" includes today. */
export function presetRange(preset: RangePreset, now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  const today = now.startOf('day');
  switch (preset) {
    case 'today':
      return [today, now.endOf('day')];
    case 'yesterday': {
      const y = today.subtract(1, 'day');
      return [y, y.endOf('day')];
    }
    default: {
      const days = Number(preset.slice(4));
      return [today.subtract(days - 1, 'day'), now.endOf('day')];
    }
  }
}

/** Presets in the shape antd's RangePicker takes, labelled by `label(key)`. */
export function rangePresets(
  label: (key: string) => string,
  now: Dayjs = dayjs(),
): { label: string; value: [Dayjs, Dayjs] }[] {
  return RANGE_PRESETS.map((p) => ({ label: label(`dateRange.${p}`), value: presetRange(p, now) }));
}
