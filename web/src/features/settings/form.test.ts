import { describe, expect, it } from 'vitest';
import type { Field } from './api';
import { toForm, toWire } from './form';

const fields: Field[] = [
  {
    key: 'mondayOn',
    group: 'timeOfUse',
    unit: '',
    default: 'true',
    selectable: false,
    type: 'bool',
  },
  {
    key: 'sellTime1',
    group: 'timeOfUse',
    unit: '',
    default: '00:00',
    selectable: false,
    type: 'time',
  },
  {
    key: 'cap1',
    group: 'timeOfUse',
    unit: '%',
    default: '100',
    selectable: false,
    type: 'number',
    min: 0,
    max: 100,
    decimals: 0,
  },
];

describe('settings form', () => {
  it('switches for booleans, text otherwise, defaults for missing values', () => {
    expect(toForm(fields, { mondayOn: 'false', sellTime1: '06:30' })).toEqual({
      mondayOn: false,
      sellTime1: '06:30',
      cap1: '100',
    });
  });

  it('reads flags written "1"/"0" as the original API does', () => {
    const timer: Field = {
      key: 'peakAndVallery',
      group: 'workMode',
      unit: '',
      default: '0',
      selectable: true,
      type: 'bool',
    };
    expect(toForm([timer], { peakAndVallery: '1' })).toEqual({ peakAndVallery: true });
    expect(toForm([timer], {})).toEqual({ peakAndVallery: false });
  });

  it('sends every value as a string with the sn', () => {
    expect(toWire('INV1', { mondayOn: true, cap1: '80' })).toEqual({
      sn: 'INV1',
      mondayOn: 'true',
      cap1: '80',
    });
  });
});
